/// What a handler call tells libmicrohttpd to do with the connection next, as a Swift value: go on
/// (read the next request, send what was queued) or close it. `DaemonCallbacks` alone turns it into
/// libmicrohttpd's `MHD_Result`, so the code that answers a request names no C type (issue 59).
enum CallResult {
    case carryOn
    case close
}
