// Swift cannot import C variadic functions; these static inline wrappers are
// the only C in the project, compiled by clang as part of the module import.
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <microhttpd.h>

/// MHD_start_daemon with an option array (END-terminated).
static inline struct MHD_Daemon *
shim_start_daemon(unsigned int flags, uint16_t port,
                  MHD_AccessHandlerCallback handler, void *handler_cls,
                  struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The socket of a connection, for SO_LINGER (the connection_reset fault).
static inline int shim_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The client's address (for quotas keyed by ip).
static inline const struct sockaddr *shim_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// The per-connection pointer set in the MHD_OPTION_NOTIFY_CONNECTION callback.
static inline void *shim_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The daemon a connection belongs to (the TLS certificate callback finds its leaves by it).
static inline struct MHD_Daemon *shim_connection_daemon(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    return info ? info->daemon : NULL;
}

/// libmicrohttpd's messages (`MHD_OPTION_EXTERNAL_LOGGER`) passed on without their arguments:
/// Swift cannot take a `va_list` in a C callback, and only the format says which message it is.
typedef void (*shim_message_callback)(void *cls, const char *format);
struct shim_message_sink { shim_message_callback callback; void *cls; };

static inline void shim_message_forward(void *cls, const char *format, va_list arguments)
{
    (void) arguments;
    struct shim_message_sink *sink = (struct shim_message_sink *) cls;
    sink->callback(sink->cls, format);
}

/// `shim_message_forward` as the logger option's value.
static inline intptr_t shim_message_forwarder(void)
{
    return (intptr_t) &shim_message_forward;
}

/// Whether a connection speaks TLS (a CONNECT inside one cannot be turned into a tunnel).
static inline int shim_connection_is_tls(struct MHD_Connection *connection)
{
    return MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION) != NULL;
}

/// Ends an upgraded connection (a WebSocket): libmicrohttpd closes the socket and frees the connection.
/// MHD_upgrade_action is variadic, so Swift cannot call it itself.
static inline enum MHD_Result shim_upgrade_close(struct MHD_UpgradeResponseHandle *urh)
{
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}
