#pragma once
// "Save to my catalog": the id, name and source of a custom GPU or model the person keeps in their own catalog
// (core/model/catalog/user_catalog.h), and for a GPU an optional price per GPU-hour. Window-modal and opened with
// open(), so nothing waits on a nested event loop; a price that is not a number of US dollars within
// checkGpuHourPrice's rule is refused here, and the save itself is the caller's. Either refusal (an id taken, a bad
// existing file) stays in the dialog, in red, until the person changes something or cancels.

#include <QDialog>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ridgeline::ui {

// What the dialog asks for, as it starts and as the person leaves it.
struct CatalogEntry {
    QString id;
    QString name;
    QString source;
    std::optional<double> gpuHourPrice;  // US dollars; empty: none
};

class CatalogEntryDialog : public QDialog {
    Q_OBJECT
public:
    // Returns nullopt when saved (the dialog then closes), else why not.
    using Save = std::function<std::optional<QString>(const CatalogEntry& entry)>;
    enum class Price { NotAsked, Asked };  // a GPU's dialog asks for one, a model's does not

    CatalogEntryDialog(QWidget* parent, const QString& title, const QString& what, const CatalogEntry& start,
                       Price price, Save save);

    QString errorText() const;

private:
    void trySave();
    void showError(const QString& message);

    Save m_save;
    QLineEdit* m_id = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_source = nullptr;
    QLineEdit* m_price = nullptr;  // only when asked
    QLabel* m_error = nullptr;
    QPushButton* m_saveButton = nullptr;
};

}  // namespace ridgeline::ui
