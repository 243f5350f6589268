// libpng with an error callback that longjmps (its default prints and aborts the read).
#include "CParleyImage.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    char *message;
    size_t message_size;
} pimg_png_source;

static void pimg_png_read(png_structp png, png_bytep target, png_size_t length) {
    pimg_png_source *source = (pimg_png_source *)png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "the PNG data ends too early");
    memcpy(target, source->data + source->offset, length);
    source->offset += length;
}

static void pimg_png_error(png_structp png, png_const_charp text) {
    pimg_png_source *source = (pimg_png_source *)png_get_error_ptr(png);
    if (source && source->message && source->message_size > 0) snprintf(source->message, source->message_size, "%s", text);
    png_longjmp(png, 1);
}

static void pimg_png_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

int pimg_png_decode(const unsigned char *data, size_t size, int max_side, long max_pixels,
                    pimg_image *out, char *message, size_t message_size) {
    memset(out, 0, sizeof(*out));
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        if (message && message_size) snprintf(message, message_size, "not a PNG");
        return PIMG_INVALID;
    }
    pimg_png_source source = {data, size, 8, message, message_size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, pimg_png_error, pimg_png_warning);
    if (!png) return PIMG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return PIMG_NO_MEMORY;
    }
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return PIMG_INVALID;
    }
    png_set_read_fn(png, &source, pimg_png_read);
    png_set_sig_bytes(png, 8);
    // libpng's default limits (1,000,000 px a side, 8 MB per ancillary chunk) stay as a second line
    // behind the check below, which must see the header to name the refusal "too large".
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    out->source_width = (int)width;
    out->source_height = (int)height;
    if ((long)width > max_side || (long)height > max_side || (long)width * (long)height > max_pixels) {
        png_destroy_read_struct(&png, &info, NULL);
        if (message && message_size) snprintf(message, message_size, "the image is larger than allowed");
        return PIMG_TOO_LARGE;
    }
    // Normalise every variant to 8-bit RGB: expand palettes and low bit depths, strip 16-bit,
    // turn grey into RGB, and blend any alpha onto white.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_color_16 white = {0, 255, 255, 255, 255};
    png_set_background(png, &white, PNG_BACKGROUND_GAMMA_SCREEN, 0, 1.0);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = png_get_rowbytes(png, info);
    if (stride != (size_t)width * 3) png_error(png, "unsupported PNG layout");
    pixels = malloc(stride * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + stride * y;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    out->pixels = pixels;
    out->width = out->source_width = (int)width;
    out->height = out->source_height = (int)height;
    return PIMG_OK;
}
