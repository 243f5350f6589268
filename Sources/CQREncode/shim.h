// libqrencode (Debian libqrencode-dev): turns bytes into a QR code's module matrix.
#include <qrencode.h>
