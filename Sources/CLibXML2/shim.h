// Debian's libxml/encoding.h pulls in the system ICU, whose UErrorCode clashes with Foundation's
// bundled ICU in the same module graph. The plist reader needs no ICU conversion, so switch it off.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <stdarg.h>
#include <stdio.h>

// libxml2's generic error handler is variadic, which Swift cannot implement or call: these helpers
// format each message and hand it to a plain callback, so nothing libxml2 reports reaches stderr.

/// Receives one formatted piece of a generic error message (libxml2 may send a line in pieces).
typedef void (*stocktake_xml_sink)(void *context, const char *text);

/// Where the generic handler sends its text: `sink(context, text)`; a NULL sink drops it.
typedef struct {
    stocktake_xml_sink sink;
    void *context;
} stocktake_xml_generic_target;

static inline void stocktake_xml_generic_error(void *target, const char *format, ...) {
    stocktake_xml_generic_target *destination = (stocktake_xml_generic_target *)target;
    if (destination == NULL || destination->sink == NULL || format == NULL) return;
    char text[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    destination->sink(destination->context, text);
}

/// Routes this thread's generic errors to `target` (kept alive by the caller until routed elsewhere);
/// NULL drops them. Never leaves libxml2's default (stderr) in place.
static inline void stocktake_xml_route_generic_errors(stocktake_xml_generic_target *target) {
    xmlSetGenericErrorFunc(target, stocktake_xml_generic_error);
}
