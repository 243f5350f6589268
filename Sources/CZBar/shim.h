// zbar (Debian libzbar-dev): finds and decodes QR codes in a grayscale image.
#include <zbar.h>
