// libzmq, as Debian's libzmq3-dev installs it. Only OCRZeroMQ imports this module.
#ifndef CZEROMQ_SHIM_H
#define CZEROMQ_SHIM_H
#include <zmq.h>
#endif
