// libpng 1.6 (Debian libpng-dev). Only its "simplified API" (png_image_*) is used: it catches libpng's
// longjmp errors itself and reports them as a return value, which Swift can handle safely.
#include <png.h>
