// A tiny C face for libjpeg-turbo and libpng. Both libraries report fatal errors through callbacks
// that, by default, print and call exit(); this shim longjmps back instead, so hostile input becomes
// an error code and a message, never a dead process.
#ifndef CPARLEYIMAGE_H
#define CPARLEYIMAGE_H

#include <stddef.h>

/// Decoded pixels: 8-bit RGB, rows packed (stride = width * 3). Free `pixels` with pimg_free.
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
    /// The stored image's own size before any decode-time scaling.
    int source_width;
    int source_height;
} pimg_image;

enum {
    PIMG_OK = 0,
    PIMG_INVALID = 1,   /// not decodable (garbage, truncated, unsupported variant)
    PIMG_TOO_LARGE = 2, /// the header declares dimensions past the limit
    PIMG_NO_MEMORY = 3
};

/// Decodes a JPEG, letting libjpeg scale by 1/2, 1/4 or 1/8 while the result stays at least
/// `min_side` on its longest side. Refuses images wider or taller than `max_side`.
int pimg_jpeg_decode(const unsigned char *data, size_t size, int min_side, int max_side,
                     pimg_image *out, char *message, size_t message_size);

/// Decodes a PNG (any bit depth or colour type; alpha is composited on white). Refuses images
/// wider or taller than `max_side` or with more than `max_pixels` pixels.
int pimg_png_decode(const unsigned char *data, size_t size, int max_side, long max_pixels,
                    pimg_image *out, char *message, size_t message_size);

/// Encodes packed RGB as a baseline JPEG at `quality` (1–100). Free `*out` with pimg_free.
int pimg_jpeg_encode(const unsigned char *rgb, int width, int height, int quality,
                     unsigned char **out, unsigned long *out_size, char *message, size_t message_size);

/// Frees memory the shim handed out.
void pimg_free(void *pointer);

#endif
