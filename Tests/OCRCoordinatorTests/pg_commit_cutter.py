"""A TCP proxy in front of PostgreSQL that can lose the answer to a COMMIT: the server commits,
and the client's connection breaks before it hears so (as when a database fails over or the
network drops at that moment). LeaderElectionTests uses it.

usage: pg_commit_cutter.py UPSTREAM_PORT ARM_FILE
Prints the port it listens on. While ARM_FILE exists, the next COMMIT that passes is forwarded
to the server, ARM_FILE is deleted, and the server's answer is never delivered: both sides of
that connection are closed instead. Other connections and messages pass untouched."""
import os
import socket
import sys
import threading

upstream_port = int(sys.argv[1])
arm_file = sys.argv[2]
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)


def close(*sockets):
    for s in sockets:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()


def serve(client):
    try:
        server = socket.create_connection(("127.0.0.1", upstream_port))
    except OSError:  # the database is down: so is this connection
        close(client)
        return
    cut = threading.Event()

    def client_to_server():
        try:
            while data := client.recv(65536):
                # A simple-protocol query ('Q', length, text): libpq's PQexec sends COMMIT so.
                if b"Q\x00\x00\x00\x0bCOMMIT\x00" in data and os.path.exists(arm_file):
                    os.unlink(arm_file)
                    cut.set()
                server.sendall(data)
        except OSError:
            pass
        close(client, server)

    def server_to_client():
        try:
            while data := server.recv(65536):
                if cut.is_set():
                    break  # the answer to the COMMIT (or after it) is lost
                client.sendall(data)
        except OSError:
            pass
        close(client, server)

    threading.Thread(target=client_to_server, daemon=True).start()
    threading.Thread(target=server_to_client, daemon=True).start()


while True:
    connection, _ = listener.accept()
    serve(connection)
