// libcurl (Debian's libcurl4-openssl-dev, pkg-config libcurl): the coordinator's outbound HTTP,
// for webhooks. Only OCRWebhook imports it. curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call, so the wrappers below fix their argument types.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode ocr_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ocr_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ocr_curl_set_headers(CURL *curl, struct curl_slist *headers) {
    return curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
}

/// The body to POST: `size` bytes at `data`, which must live until the transfer ends.
static inline CURLcode ocr_curl_set_body(CURL *curl, const void *data, long size) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, size);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_POSTFIELDS, data);
}

static size_t ocr_curl_discard(char *data, size_t size, size_t count, void *user) {
    (void) data; (void) user;
    return size * count;
}

/// Drops the response body (libcurl would write it to stdout).
static inline CURLcode ocr_curl_discard_body(CURL *curl) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ocr_curl_discard);
}

static inline long ocr_curl_response_code(CURL *curl) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
#endif
