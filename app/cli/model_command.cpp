#include "app/cli/commands.h"

namespace ridgeline::cli {

int runModel(const QStringList&, Streams io)
{
    io.err << "ridgeline model: not implemented yet\n";
    return 2;
}

}  // namespace ridgeline::cli
