// libjpeg-turbo with an error manager that longjmps (the default one calls exit()).
#include "CParleyImage.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t message_size;
} pimg_jpeg_error;

static void pimg_jpeg_error_exit(j_common_ptr info) {
    pimg_jpeg_error *error = (pimg_jpeg_error *)info->err;
    if (error->message && error->message_size > 0) {
        char text[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, text);
        snprintf(error->message, error->message_size, "%s", text);
    }
    longjmp(error->jump, 1);
}

// Nothing is printed to stderr.
static void pimg_jpeg_output_message(j_common_ptr info) { (void)info; }

// libjpeg "warns" about corrupt or truncated data and carries on with made-up pixels; for input from
// strangers that is an error (level -1 is a warning; higher levels are trace messages).
static void pimg_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) pimg_jpeg_error_exit(info);
}

static void pimg_set_message(char *message, size_t size, const char *text) {
    if (message && size > 0) snprintf(message, size, "%s", text);
}

int pimg_jpeg_decode(const unsigned char *data, size_t size, int min_side, int max_side,
                     pimg_image *out, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    pimg_jpeg_error error;
    // volatile: these change between setjmp and a possible longjmp.
    unsigned char *volatile pixels = NULL;
    memset(out, 0, sizeof(*out));
    if (size == 0 || size > (size_t)0x7fffffff) {
        pimg_set_message(message, message_size, "empty or oversized input");
        return PIMG_INVALID;
    }
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = pimg_jpeg_error_exit;
    error.base.output_message = pimg_jpeg_output_message;
    error.base.emit_message = pimg_jpeg_emit_message;
    error.message = message;
    error.message_size = message_size;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return PIMG_INVALID;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    out->source_width = (int)info.image_width;
    out->source_height = (int)info.image_height;
    if ((int)info.image_width > max_side || (int)info.image_height > max_side) {
        jpeg_destroy_decompress(&info);
        pimg_set_message(message, message_size, "the image is larger than allowed");
        return PIMG_TOO_LARGE;
    }
    info.out_color_space = JCS_RGB;
    int longest = info.image_width > info.image_height ? (int)info.image_width : (int)info.image_height;
    int denominator = 1;
    while (denominator < 8 && longest / (denominator * 2) >= min_side) denominator *= 2;
    info.scale_num = 1;
    info.scale_denom = (unsigned int)denominator;
    jpeg_start_decompress(&info);
    if (info.output_components != 3) {
        jpeg_destroy_decompress(&info);
        pimg_set_message(message, message_size, "unsupported colour space");
        return PIMG_INVALID;
    }
    size_t stride = (size_t)info.output_width * 3;
    pixels = malloc(stride * info.output_height);
    if (!pixels) {
        jpeg_destroy_decompress(&info);
        pimg_set_message(message, message_size, "out of memory");
        return PIMG_NO_MEMORY;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    out->pixels = pixels;
    out->width = (int)info.output_width;
    out->height = (int)info.output_height;
    out->source_width = (int)info.image_width;
    out->source_height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return PIMG_OK;
}

int pimg_jpeg_encode(const unsigned char *rgb, int width, int height, int quality,
                     unsigned char **out, unsigned long *out_size, char *message, size_t message_size) {
    struct jpeg_compress_struct info;
    pimg_jpeg_error error;
    unsigned char *volatile buffer = NULL;
    unsigned long length = 0;
    *out = NULL;
    *out_size = 0;
    if (width <= 0 || height <= 0 || width > 65500 || height > 65500) {
        pimg_set_message(message, message_size, "invalid dimensions");
        return PIMG_INVALID;
    }
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = pimg_jpeg_error_exit;
    error.base.output_message = pimg_jpeg_output_message;
    error.message = message;
    error.message_size = message_size;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return PIMG_INVALID;
    }
    jpeg_create_compress(&info);
    unsigned char *target = NULL;
    jpeg_mem_dest(&info, &target, &length);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * 3;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + stride * info.next_scanline);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    buffer = target;
    jpeg_destroy_compress(&info);
    *out = buffer;
    *out_size = length;
    return PIMG_OK;
}

void pimg_free(void *pointer) { free(pointer); }
