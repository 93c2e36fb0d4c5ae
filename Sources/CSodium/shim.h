// libsodium (Debian's libsodium-dev, pkg-config libsodium; libzmq's CURVE uses the same library):
// SHA-256 for content addresses (OCRPages' FileDigest) and, later, HMAC-SHA256 for webhooks.
#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H
#include <sodium.h>
#endif
