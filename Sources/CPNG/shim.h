#ifndef SATCHEL_CPNG_SHIM_H
#define SATCHEL_CPNG_SHIM_H

#include <png.h>

// The simplified API's formats are macros built of other macros, which Swift does not import.
static const png_uint_32 satchel_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 satchel_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 satchel_png_format_flag_alpha = PNG_FORMAT_FLAG_ALPHA;
static const png_uint_32 satchel_png_image_version = PNG_IMAGE_VERSION;

#endif
