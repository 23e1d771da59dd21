#pragma once
// `ridgeline help --man`: the manual page (man(7) roff) written from the commands' own --help texts, so the
// page the Debian package installs never disagrees with the binary. The build runs it (cmake/ManPage.cmake).

#include <QString>

namespace ridgeline::cli {

// One command's `--help` text as QCommandLineParser prints it, turned into a man page subsection.
QString manSectionForCommand(const QString& command, const QString& helpText);

// The whole page; each command's help text is fetched by running it with --help.
QString manPage(const QString& version, const QString& date);

}  // namespace ridgeline::cli
