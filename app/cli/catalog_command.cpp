#include "app/cli/commands.h"

namespace ridgeline::cli {

int runCatalog(const QStringList&, Streams io)
{
    io.err << "ridgeline catalog: not implemented yet\n";
    return 2;
}

}  // namespace ridgeline::cli
