#pragma once
// "Save to my catalog": the id, name and source of a custom GPU or model the person keeps in their own catalog
// (core/model/catalog/user_catalog.h). Window-modal and opened with open(), so nothing waits on a nested event loop;
// the save itself is the caller's, and its refusal (an id taken, a bad existing file) stays in the dialog, in red,
// until the person changes something or cancels.

#include <QDialog>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ridgeline::ui {

class CatalogEntryDialog : public QDialog {
    Q_OBJECT
public:
    // Returns nullopt when saved (the dialog then closes), else why not.
    using Save = std::function<std::optional<QString>(const QString& id, const QString& name, const QString& source)>;

    CatalogEntryDialog(QWidget* parent, const QString& title, const QString& what, const QString& id,
                       const QString& name, const QString& source, Save save);

    QString errorText() const;

private:
    void trySave();

    Save m_save;
    QLineEdit* m_id = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_source = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_saveButton = nullptr;
};

}  // namespace ridgeline::ui
