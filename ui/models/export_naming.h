#pragma once
// Where an export or a new session file goes by default, and what it is called: a name made from what is shown
// ("amd-epyc-zen-4-2-vcpus-roofline.png"), in the folder of the last export, else the user's Pictures (images)
// or Documents (PDF, CSV, sessions), else home; never the process's current directory, which for a program
// started from a menu is wherever the desktop happened to be.

#include <QString>

namespace ridgeline::ui {

// Lower case letters and digits joined by single dashes; at most 60 characters; "ridgeline" when nothing is left.
QString fileNameStem(const QString& text);

// "<stem of subject>-<what>.<suffix>"; `what` may be empty ("amd-epyc.json").
QString defaultFileName(const QString& subject, const QString& what, const QString& suffix);

// The folder for a file of this suffix: `last` when it is an existing directory, else the standard location.
QString defaultDirectory(const QString& last, const QString& suffix);

}  // namespace ridgeline::ui
