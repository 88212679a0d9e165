#include "ui/selfattention/selfattentioncontrols.h"

#include "engine/selfattention/partsofspeech.h"

#include <QCheckBox>
#include <QComboBox>
#include <QBoxLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>

#include <algorithm>

namespace {

const QString kDefaultSentence = QStringLiteral("I love AI");

} // namespace

SelfAttentionControls::SelfAttentionControls(QWidget *parent) : QWidget(parent)
{
    m_sentence = new QLineEdit(kDefaultSentence);
    m_sentence->setObjectName(QStringLiteral("selfAttentionSentence"));
    m_sentence->setPlaceholderText(tr("A short sentence, e.g. I love AI"));
    m_sentence->setClearButtonEnabled(true);
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("selfAttentionSource"));
    m_source->addItem(tr("Random from the seed"), int(Source::Random));
    m_source->addItem(tr("Trained encoder embeddings"), int(Source::Trained));
    m_source->setToolTip(tr("Where the rows of X come from"));
    const auto spin = [](int minimum, int maximum, int value, const QString &tip) {
        auto *box = new QSpinBox;
        box->setRange(minimum, maximum);
        box->setValue(value);
        box->setToolTip(tip);
        return box;
    };
    m_dModel = spin(kMinDimension, kMaxDimension, 4, tr("d_model: numbers per word in X"));
    m_dModel->setObjectName(QStringLiteral("dModel"));
    m_dK = spin(kMinDimension, kMaxDimension, 3, tr("d_k: numbers per word in Q, K and V; scores are divided by √d_k"));
    m_dK->setObjectName(QStringLiteral("dK"));
    m_seed = spin(0, 99999, 1, tr("Seed for the random numbers in X (random embeddings) and W_Q, W_K, W_V"));
    m_seed->setObjectName(QStringLiteral("seed"));
    m_predictFirst = new QCheckBox(tr("&Predict before revealing"));
    m_predictFirst->setObjectName(QStringLiteral("predictFirst"));
    m_predictFirst->setChecked(true);
    m_predictFirst->setToolTip(tr("Keep the scores, weights and output hidden until you check your prediction; "
                                  "any change to the inputs hides them again."));

    m_positions = new QCheckBox(tr("Add p&ositions"));
    m_positions->setObjectName(QStringLiteral("positions"));
    m_positions->setToolTip(tr("Add sinusoidal position encodings to X, so that word order can change the weights; "
                               "without them, reordering the words only reorders the matrix"));
    m_course = new QToolButton;
    m_course->setText(tr("&Course sentences"));
    m_course->setPopupMode(QToolButton::InstantPopup);
    auto *courseMenu = new QMenu(m_course);
    for (const std::string &text : courseSentences()) {
        const QString sentence = QString::fromStdString(text);
        courseMenu->addAction(sentence, this, [this, sentence] { setSentence(sentence); });
    }
    m_course->setMenu(courseMenu);
    auto *sentenceRow = new QHBoxLayout;
    sentenceRow->addWidget(m_sentence, 1);
    sentenceRow->addWidget(m_course);

    auto *sentenceLabel = new QLabel(tr("&Sentence:"));
    sentenceLabel->setBuddy(m_sentence);
    auto *sourceLabel = new QLabel(tr("&Embeddings:"));
    sourceLabel->setBuddy(m_source);
    auto *dModelLabel = new QLabel(tr("d_&model:"));
    dModelLabel->setBuddy(m_dModel);
    auto *dKLabel = new QLabel(tr("d_&k:"));
    dKLabel->setBuddy(m_dK);
    auto *seedLabel = new QLabel(tr("S&eed:"));
    seedLabel->setBuddy(m_seed);
    auto *controls = new QGridLayout(this);
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(sentenceLabel, 0, 0);
    controls->addLayout(sentenceRow, 0, 1, 1, 8);
    controls->addWidget(sourceLabel, 1, 0);
    controls->addWidget(m_source, 1, 1);
    controls->addWidget(dModelLabel, 1, 2);
    controls->addWidget(m_dModel, 1, 3);
    controls->addWidget(dKLabel, 1, 4);
    controls->addWidget(m_dK, 1, 5);
    controls->addWidget(seedLabel, 1, 6);
    controls->addWidget(m_seed, 1, 7);
    controls->addWidget(m_predictFirst, 2, 1, 1, 3);
    controls->addWidget(m_positions, 2, 4, 1, 4);
    controls->setColumnStretch(8, 1);

    connect(m_sentence, &QLineEdit::textChanged, this, &SelfAttentionControls::changed);
    m_randomOnly = {dModelLabel, m_dModel, dKLabel, m_dK, seedLabel, m_seed, m_positions};
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] {
        showSource();
        emit changed();
    });
    for (QSpinBox *box : {m_dModel, m_dK, m_seed})
        connect(box, &QSpinBox::valueChanged, this, &SelfAttentionControls::changed);
    connect(m_predictFirst, &QCheckBox::toggled, this, &SelfAttentionControls::changed);
    connect(m_positions, &QCheckBox::toggled, this, &SelfAttentionControls::changed);
}


QString SelfAttentionControls::sentence() const
{
    return m_showingHead ? m_typed : m_sentence->text();
}

void SelfAttentionControls::setSentence(const QString &sentence)
{
    if (m_showingHead)
        m_typed = sentence;
    else
        m_sentence->setText(sentence);
}

SelfAttentionControls::Source SelfAttentionControls::source() const
{
    return Source(m_source->currentData().toInt());
}

void SelfAttentionControls::setSource(Source source)
{
    m_source->setCurrentIndex(std::max(0, m_source->findData(int(source))));
}

void SelfAttentionControls::offerHead(const QString &description, const QString &words)
{
    m_headWords = words;
    const QString name = tr("Trained head: %1").arg(description);
    const int index = m_source->findData(int(Source::Head));
    if (index < 0)
        m_source->addItem(name, int(Source::Head));
    else
        m_source->setItemText(index, name);
    showSource();
}

void SelfAttentionControls::showSource()
{
    // The head's X is its layer's input on its own sentence, positions included.
    const bool head = source() == Source::Head;
    const QSignalBlocker quiet(m_sentence);
    if (head && !m_showingHead)
        m_typed = m_sentence->text();
    m_sentence->setText(head ? m_headWords : m_showingHead ? m_typed : m_sentence->text());
    m_showingHead = head;
    m_sentence->setEnabled(!head);
    m_course->setEnabled(!head);
    for (QWidget *field : std::as_const(m_randomOnly))
        field->setVisible(!head);
}

int SelfAttentionControls::dModel() const
{
    return m_dModel->value();
}

void SelfAttentionControls::setDModel(int dModel)
{
    m_dModel->setValue(dModel);
}

int SelfAttentionControls::dK() const
{
    return m_dK->value();
}

void SelfAttentionControls::setDK(int dK)
{
    m_dK->setValue(dK);
}

int SelfAttentionControls::seed() const
{
    return m_seed->value();
}

void SelfAttentionControls::setSeed(int seed)
{
    m_seed->setValue(seed);
}

bool SelfAttentionControls::predictFirst() const
{
    return m_predictFirst->isChecked();
}

void SelfAttentionControls::setPredictFirst(bool predictFirst)
{
    m_predictFirst->setChecked(predictFirst);
}

bool SelfAttentionControls::positions() const
{
    return m_positions->isChecked();
}

void SelfAttentionControls::setPositions(bool positions)
{
    m_positions->setChecked(positions);
}

void SelfAttentionControls::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("selfAttention"));
    settings.setValue(QStringLiteral("sentence"), sentence());
    // A shared head is not kept: the next session starts from random numbers.
    settings.setValue(QStringLiteral("source"), source() == Source::Trained ? QStringLiteral("trained")
                                                                            : QStringLiteral("random"));
    settings.setValue(QStringLiteral("dModel"), dModel());
    settings.setValue(QStringLiteral("dK"), dK());
    settings.setValue(QStringLiteral("seed"), seed());
    settings.setValue(QStringLiteral("predictFirst"), predictFirst());
    settings.setValue(QStringLiteral("positions"), positions());
    settings.endGroup();
}

void SelfAttentionControls::restoreSettings(QSettings &settings)
{
    settings.beginGroup(QStringLiteral("selfAttention"));
    setSentence(settings.value(QStringLiteral("sentence"), kDefaultSentence).toString());
    setSource(settings.value(QStringLiteral("source")).toString() == QLatin1String("trained") ? Source::Trained
                                                                                            : Source::Random);
    setDModel(settings.value(QStringLiteral("dModel"), dModel()).toInt());
    setDK(settings.value(QStringLiteral("dK"), dK()).toInt());
    setSeed(settings.value(QStringLiteral("seed"), seed()).toInt());
    setPredictFirst(settings.value(QStringLiteral("predictFirst"), true).toBool());
    setPositions(settings.value(QStringLiteral("positions"), false).toBool());
    settings.endGroup();
}
