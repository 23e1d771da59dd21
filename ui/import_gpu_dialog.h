#pragma once
// The window's question on import: imported GPU kernels whose files name no catalog GPU (Nsight Compute
// without device__attribute_display_name, or a card the catalog lacks) are drawn against no roof until the user
// says which GPU they ran on. A window-modal dialog that does not block (open(), not exec()); its object name is
// "ImportGpuDialog", its list "ImportGpuList" (the catalog's GPUs, then "none of these"), its Import button is
// disabled until a GPU is chosen.

#include <QStringList>

#include <functional>

class QWidget;

namespace ridgeline::ui {

// answer(id): a catalog GPU id, or "" for "none of these: no roof"; cancelled(): the dialog was closed.
void askImportGpu(QWidget* parent, int kernels, const QStringList& deviceNames,
                  std::function<void(const QString&)> answer, std::function<void()> cancelled);

}  // namespace ridgeline::ui
