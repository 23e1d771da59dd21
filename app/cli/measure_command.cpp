#include "app/cli/commands.h"

namespace ridgeline::cli {

int runMeasure(const QStringList&, Streams io)
{
    io.err << "ridgeline measure: not implemented yet\n";
    return 2;
}

}  // namespace ridgeline::cli
