#ifndef SATCHEL_CCURL_SHIM_H
#define SATCHEL_CCURL_SHIM_H

// libcurl's declarations only (Debian's libcurl4-openssl-dev): satchel loads the library itself, on the first
// request to an HTTP feed (see Domain/Messages/HTTPMessageFeed.swift).
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call; these call
// them, through the pointers found in the loaded library, with one argument of each kind.
typedef CURLcode (*satchel_curl_easy_variadic)(CURL *, int, ...);

static inline CURLcode satchel_curl_setopt_long(void *function, CURL *easy, CURLoption option, long value) {
    return ((satchel_curl_easy_variadic)function)(easy, option, value);
}

static inline CURLcode satchel_curl_setopt_pointer(void *function, CURL *easy, CURLoption option, const void *value) {
    return ((satchel_curl_easy_variadic)function)(easy, option, value);
}

static inline CURLcode satchel_curl_getinfo_long(void *function, CURL *easy, CURLINFO info, long *value) {
    return ((satchel_curl_easy_variadic)function)(easy, info, value);
}

#endif
