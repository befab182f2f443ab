// The system's SQLite (libsqlite3-dev on Debian and Ubuntu, the SDK's on macOS).
#include <sqlite3.h>
