// GnuTLS, for the certificate callback libmicrohttpd's TLS calls (MHD_OPTION_HTTPS_CERT_CALLBACK):
// the leaf for the name the client asked for (SNI) is handed over as GnuTLS's own objects.
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/x509.h>
