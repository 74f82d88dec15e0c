// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these wrappers
// fix one argument type each. The forwarder (`stubd record`, `serve --proxy`) is their only user.
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
