// Debian's libxml/encoding.h pulls in the system ICU, whose UErrorCode clashes with Foundation's
// bundled ICU in the same module graph. The plist reader needs no ICU conversion, so switch it off.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
