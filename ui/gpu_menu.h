#pragma once
// View > GPU Rooflines: catalog GPUs drawn beside the CPU (same physics, different ratio) at one number format's
// dense peak, GPUs typed in by hand, and Clear.

#include "core/model/number_format.h"
#include "core/model/roofline.h"

#include <QList>
#include <QMenu>

#include <vector>

class QAction;
class QActionGroup;

namespace ridgeline::ui {

class GpuMenu : public QMenu {
    Q_OBJECT
public:
    // `window` parents the menu and its dialogs; the menu is added to View by the window.
    explicit GpuMenu(QWidget* window);

    // The checked catalog GPUs at the chosen format, then the custom ones.
    std::vector<NamedRoof> roofs() const;

signals:
    void roofsChanged();
    // A checked GPU has no dense peak in the chosen format (an A100 has no fp8): the status bar says so.
    void statusMessage(const QString& text, int milliseconds);

private:
    NumberFormat format() const;
    void onChanged();
    void addCustomGpu();
    void clear();

    QList<QAction*> m_gpuActions;          // one checkable action per catalog GPU (data: id)
    QActionGroup* m_formats = nullptr;     // which dense peak (fp32, bf16 ...) the roofs use
    std::vector<NamedRoof> m_customRoofs;  // typed in by hand
};

}  // namespace ridgeline::ui
