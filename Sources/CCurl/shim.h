// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these wrappers
// fix one argument type each; the macros and the union below do not import cleanly either. The
// forwarder (`stubd record`, `serve --proxy`) is their only user.
#include <curl/curl.h>

typedef size_t (*shim_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode shim_curl_long(CURL *handle, CURLoption option, long value)
{
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shim_curl_pointer(CURL *handle, CURLoption option, const void *value)
{
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shim_curl_size(CURL *handle, CURLoption option, curl_off_t value)
{
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode shim_curl_callback(CURL *handle, CURLoption option, shim_curl_data_callback callback)
{
    return curl_easy_setopt(handle, option, callback);
}

static inline long shim_curl_status(CURL *handle)
{
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

/// What a write callback returns to have libcurl keep the bytes and pause receiving.
static inline size_t shim_curl_write_pause(void)
{
    return CURL_WRITEFUNC_PAUSE;
}

/// Unpauses a transfer paused by its write callback; only from the thread driving it.
static inline CURLcode shim_curl_unpause(CURL *handle)
{
    return curl_easy_pause(handle, CURLPAUSE_CONT);
}

/// The result of `easy` once `multi` reports it done; 0 while it is not.
static inline int shim_curl_multi_done(CURLM *multi, CURL *easy, CURLcode *result)
{
    int left = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE && message->easy_handle == easy) {
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

/// Who opens the transfer's sockets: the forwarder looks at each address before it is connected to
/// (a target that is stubd itself is a loop).
static inline CURLcode shim_curl_opensocket(CURL *handle, curl_opensocket_callback callback, void *context)
{
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, context);
}

/// What an open-socket callback returns to refuse an address.
static inline curl_socket_t shim_curl_socket_bad(void)
{
    return CURL_SOCKET_BAD;
}
