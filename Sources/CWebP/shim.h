#ifndef SATCHEL_CWEBP_SHIM_H
#define SATCHEL_CWEBP_SHIM_H

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

// WebPGetFeatures is an inline wrapper around a versioned function; this spares Swift the version macro.
static inline VP8StatusCode satchel_webp_features(const uint8_t *data, size_t size, WebPBitstreamFeatures *features) {
    return WebPGetFeatures(data, size, features);
}

// WebPDemux is an inline wrapper around a versioned function too.
static inline WebPDemuxer *satchel_webp_demux(const uint8_t *data, size_t size) {
    WebPData whole = {data, size};
    return WebPDemux(&whole);
}

#endif
