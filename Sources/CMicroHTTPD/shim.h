// GNU libmicrohttpd 0.9 (Debian's libmicrohttpd-dev): the coordinator's HTTP server. Only
// OCRHTTP imports it. MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot
// call, so the two wrappers below fix their arguments.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a daemon with the options of `options` (terminated by MHD_OPTION_END), the access
/// handler, the request-completed callback and the connection opened/closed callback.
static inline struct MHD_Daemon *ocr_mhd_start(unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
                                               MHD_RequestCompletedCallback completed, void *completed_cls,
                                               MHD_NotifyConnectionCallback notify, void *notify_cls,
                                               struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The socket of a connection (-1 when unknown).
static inline int ocr_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The port the daemon listens on (0 when unknown).
static inline uint16_t ocr_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// A response with a copy of `size` bytes at `data`.
static inline struct MHD_Response *ocr_mhd_response_copying(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *) data, MHD_RESPMEM_MUST_COPY);
}

/// Connections open right now.
static inline unsigned int ocr_mhd_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}
#endif
