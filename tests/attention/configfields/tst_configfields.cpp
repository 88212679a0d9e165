#include "tests/common/testregistry.h"
#include "app/attention/attentionhelp.h"
#include "app/attention/runfiles.h"
#include "app/attention/runoptions.h"
#include "app/core/commandline.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"
#include "tests/common/configtablechecks.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/configmap.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QPushButton>
#include <QtTest>

namespace {

// Each field given as --key value, --key=value (alternately) or a flag, as a user would type it.
template <typename Config>
void appendArguments(const Config &config, const std::vector<ConfigField<Config>> &fields,
                     std::vector<std::string> *arguments)
{
    for (const ConfigField<Config> &field : fields) {
        const FieldValue v = field.get(config);
        if (field.type == FieldType::Flag) {
            arguments->push_back((v.number != 0 ? "--" : "--no-") + field.key);
        } else if (arguments->size() % 2 == 0) {
            arguments->push_back("--" + field.key + "=" + formatValue(field, v));
        } else {
            arguments->push_back("--" + field.key);
            arguments->push_back(formatValue(field, v));
        }
    }
}

// Each number and choice field just outside its range: validate() names the field. (Below an
// integer minimum of 0 only the command line is tried: the seeds are unsigned.)
template <typename Config>
void refuseOutOfRange(const std::vector<ConfigField<Config>> &fields)
{
    for (const ConfigField<Config> &field : fields) {
        if (field.type == FieldType::Flag || field.type == FieldType::Path)
            continue;
        const double step = field.type == FieldType::Real ? field.step : 1;
        std::vector<double> outside = {field.maximum + step};
        if (field.type != FieldType::Integer || field.minimum > 0)
            outside.push_back(field.minimum - step);
        for (double number : outside) {
            Config config;
            FieldValue v;
            v.number = number;
            field.set(config, v);
            const QString problem = QString::fromStdString(validate(config));
            QVERIFY2(problem.startsWith(QString::fromStdString(field.label + " must be")),
                     qPrintable(QString::fromStdString(field.key) + ": " + problem));
        }
    }
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

template <typename Config>
Config fromJson(const QJsonValue &json, const std::vector<ConfigField<Config>> &fields)
{
    Config config;
    readVariantMap(json.toObject().toVariantMap(), config, fields);
    return config;
}

}

// Every field of the three configurations through each reader of the field tables: command line,
// JSON files, settings, the panels' widgets, --help and validate().
class TestConfigFields : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void tablesAreSound();
    void changedValuesDifferAndAreValid();
    void commandLineToJsonAndBack();
    void builtInWordLists();
    void comparisonJsonHoldsEveryField();
    void settingsRestoreEveryField();
    void panelRangesAreTheEngines();
    void validateRefusesEachFieldOutOfRange();
    void commandLineRefusesEachFieldOutOfRange();
    void helpListsEveryOptionWithItsDefault();

private:
    QTemporaryDir m_dir;
    DatasetConfig m_dataset;
    ModelConfig m_model;
    TrainingConfig m_training;
};

void TestConfigFields::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_dataset = changedConfig(datasetConfigFields());
    // Auto (0) plus 2 would be below the changed minimum length of 5.
    m_dataset.maxLength = 12;
    m_dataset.words = {"red", "green", "blue"};
    m_model = changedConfig(modelConfigFields());
    m_training = changedConfig(trainingConfigFields());
}

void TestConfigFields::tablesAreSound()
{
    checkConfigTable(datasetConfigFields(), /*sharedFields=*/0);
    checkConfigTable(modelConfigFields(), /*sharedFields=*/0);
    checkConfigTable(trainingConfigFields(), /*sharedFields=*/3);
}

void TestConfigFields::changedValuesDifferAndAreValid()
{
    checkDiffersFromDefaults(m_dataset, datasetConfigFields());
    checkDiffersFromDefaults(m_model, modelConfigFields());
    checkDiffersFromDefaults(m_training, trainingConfigFields());
    QCOMPARE(QString::fromStdString(validate(m_dataset)), QString());
    QCOMPARE(QString::fromStdString(validate(m_model)), QString());
    QCOMPARE(QString::fromStdString(validate(m_training)), QString());
}

// CLI arguments -> configs -> metrics.json -> configs.
void TestConfigFields::commandLineToJsonAndBack()
{
    QFile words(m_dir.filePath("words.txt"));
    QVERIFY(words.open(QIODevice::WriteOnly));
    words.write("red green\nblue red\n");
    words.close();
    std::vector<std::string> arguments = {"--out", m_dir.path().toStdString(), "--words-file",
                                          words.fileName().toStdString()};
    appendArguments(m_dataset, datasetConfigFields(), &arguments);
    appendArguments(m_model, modelConfigFields(), &arguments);
    appendArguments(m_training, trainingConfigFields(), &arguments);
    CommandLine cl({}, {});
    addRunOptions(cl);
    cl.parse(arguments);
    const RunOptions options = readRunOptions(cl);
    QVERIFY2(cl.ok(), cl.error().c_str());
    compareFields(options.dataset, m_dataset, datasetConfigFields());
    compareFields(options.model, m_model, modelConfigFields());
    compareFields(options.training, m_training, trainingConfigFields());
    QCOMPARE(options.dataset.words, m_dataset.words);

    Seq2SeqModel model(options.model, Vocabulary(options.dataset.words), 1);
    model.datasetConfig = options.dataset;
    const QJsonObject config =
        runfiles::metricsJson(model, Dataset{}, options.training, TrainingOutcome{}, EvaluationReport{}, {})["config"]
            .toObject();
    compareFields(fromJson(config["dataset"], datasetConfigFields()), m_dataset, datasetConfigFields());
    compareFields(fromJson(config["model"], modelConfigFields()), m_model, modelConfigFields());
    compareFields(fromJson(config["training"], trainingConfigFields()), m_training, trainingConfigFields());
    // The keys people read before the fields were tabled are still there.
    QCOMPARE(config["model"].toObject()["embed"].toInt(), m_model.embedSize);
    QCOMPARE(config["dataset"].toObject()["min_len"].toInt(), m_dataset.minLength);
    QCOMPARE(config["training"].toObject()["lr"].toDouble(), m_training.learningRate);
    QCOMPARE(config["dataset"].toObject()["words"].toArray().size(), 3);
}

void TestConfigFields::comparisonJsonHoldsEveryField()
{
    ExperimentResult run;
    run.label = "changed";
    run.model = m_model;
    const QString path = m_dir.filePath("comparison.json");
    QString error;
    QVERIFY2(runfiles::writeComparison(path, {run}, m_dataset, m_training, 20, 100, &error), qPrintable(error));
    const QJsonObject json = readJson(path);
    compareFields(fromJson(json["runs"].toArray()[0].toObject()["model"], modelConfigFields()), m_model,
                  modelConfigFields());
    compareFields(fromJson(json["dataset"], datasetConfigFields()), m_dataset, datasetConfigFields());
    compareFields(fromJson(json["training"], trainingConfigFields()), m_training, trainingConfigFields());
}

// The digits of the course's toy exercise, on the command line and in the Dataset panel.
void TestConfigFields::builtInWordLists()
{
    const auto read = [this](const std::vector<std::string> &words, std::string *error) {
        std::vector<std::string> arguments = {"--out", m_dir.path().toStdString()};
        arguments.insert(arguments.end(), words.begin(), words.end());
        CommandLine cl({}, {});
        addRunOptions(cl);
        cl.parse(arguments);
        const RunOptions options = readRunOptions(cl);
        *error = cl.ok() ? std::string() : cl.error();
        return options.dataset.words;
    };
    std::string error;
    QCOMPARE(read({"--words", "digits"}, &error), DatasetConfig::digitWords());
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(DatasetConfig::digitWords().size(), std::size_t(10));
    QCOMPARE(read({"--words", "default"}, &error), DatasetConfig::defaultWords());
    QVERIFY2(error.empty(), error.c_str());
    read({"--words", "letters"}, &error);
    QVERIFY2(error.find("--words takes digits or default") != std::string::npos, error.c_str());
    read({"--words", "digits", "--words-file", "words.txt"}, &error);
    QVERIFY2(error.find("not both") != std::string::npos, error.c_str());

    DatasetPanel panel;
    auto *digits = panel.findChild<QPushButton *>(QStringLiteral("digitWords"));
    QVERIFY(digits);
    digits->click();
    QCOMPARE(panel.config().words, DatasetConfig::digitWords());
}

// Panels -> settings file -> new panels, through the strings a settings file holds.
void TestConfigFields::settingsRestoreEveryField()
{
    const QString path = m_dir.filePath("settings.ini");
    {
        QSettings settings(path, QSettings::IniFormat);
        DatasetPanel dataset;
        dataset.setConfig(m_dataset);
        TrainingPanel training;
        training.setModelConfig(m_model);
        training.setTrainingConfig(m_training);
        dataset.saveSettings(settings);
        training.saveSettings(settings);
    }
    QSettings settings(path, QSettings::IniFormat);
    DatasetPanel dataset;
    TrainingPanel training;
    dataset.restoreSettings(settings);
    training.restoreSettings(settings);
    compareFields(dataset.config(), m_dataset, datasetConfigFields(), /*fuzzy=*/true);
    compareFields(training.modelConfig(), m_model, modelConfigFields(), true);
    compareFields(training.trainingConfig(), m_training, trainingConfigFields(), true);
    QCOMPARE(dataset.config().words, m_dataset.words);
}

void TestConfigFields::panelRangesAreTheEngines()
{
    const auto check = [](QWidget *panel, const auto &fields) {
        for (const FieldSpec &field : fields) {
            if (field.type == FieldType::Path)
                continue;  // the panel's own file chooser
            QWidget *widget = panel->findChild<QWidget *>(QString::fromStdString(field.key));
            QVERIFY2(widget, field.key.c_str());
            QCOMPARE(widget->toolTip(), QString::fromStdString(field.help));
            if (auto *box = qobject_cast<QSpinBox *>(widget)) {
                QCOMPARE(field.type, FieldType::Integer);
                QCOMPARE(box->minimum(), int(field.minimum));
                QCOMPARE(box->maximum(), int(field.maximum));
            } else if (auto *box = qobject_cast<QDoubleSpinBox *>(widget)) {
                QCOMPARE(field.type, FieldType::Real);
                QCOMPARE(box->minimum(), field.minimum);
                QCOMPARE(box->maximum(), field.maximum);
                QCOMPARE(box->singleStep(), field.step);
            } else if (auto *box = qobject_cast<QComboBox *>(widget)) {
                QCOMPARE(field.type, FieldType::Choice);
                QCOMPARE(box->count(), int(field.choices.size()));
            } else {
                QVERIFY2(qobject_cast<QCheckBox *>(widget) && field.type == FieldType::Flag, field.key.c_str());
            }
        }
    };
    DatasetPanel dataset;
    check(&dataset, datasetConfigFields());
    TrainingPanel training;
    check(&training, modelConfigFields());
    check(&training, trainingConfigFields());
}

void TestConfigFields::validateRefusesEachFieldOutOfRange()
{
    refuseOutOfRange(datasetConfigFields());
    refuseOutOfRange(modelConfigFields());
    refuseOutOfRange(trainingConfigFields());
}

void TestConfigFields::commandLineRefusesEachFieldOutOfRange()
{
    const auto check = [](const auto &fields) {
        for (const FieldSpec &field : fields) {
            if (field.type == FieldType::Flag || field.type == FieldType::Path)
                continue;
            FieldValue above;
            above.number = field.maximum + (field.type == FieldType::Real ? field.step : 1);
            const std::string bad = field.type == FieldType::Choice ? "nonsense" : formatValue(field, above);
            for (const std::string &value : {bad, std::string("ten")}) {
                CommandLine cl({}, {});
                addRunOptions(cl);
                cl.parse({"--out", "x", "--" + field.key, value});
                readRunOptions(cl);
                QVERIFY2(QString::fromStdString(cl.error()).startsWith(QString::fromStdString("--" + field.key + " ")),
                         cl.error().c_str());
            }
        }
    };
    check(datasetConfigFields());
    check(modelConfigFields());
    check(trainingConfigFields());
}

void TestConfigFields::helpListsEveryOptionWithItsDefault()
{
    // train's and compare's --help both list the three tables' options.
    for (const std::string &text : {trainHelp(), compareHelp()}) {
        const QString help = QString::fromStdString(text);
        const auto check = [&help](const auto &fields) {
            for (const auto &field : fields) {
                const QString option = QString::fromStdString("--" + field.key);
                QVERIFY2(help.contains(option + (field.type == FieldType::Flag ? ", --no-" : " ")), qPrintable(option));
                const FieldValue d = field.defaultValue();
                const std::string shown = field.type == FieldType::Flag ? (d.number != 0 ? "on" : "off")
                                          : field.key == "data-seed"    ? "--seed"
                                                                        : formatValue(field, d);
                // compare lists its own options first; the tables' entries come last.
                const qsizetype line = help.lastIndexOf(QStringLiteral("\n  ") + option +
                                                        (field.type == FieldType::Flag ? ',' : ' '));
                const QString entry = help.mid(line, help.indexOf(QStringLiteral("\n  --"), line + 1) - line);
                QVERIFY2(shown.empty() || entry.simplified().contains(QString::fromStdString("(default " + shown)),
                         qPrintable(entry));
            }
        };
        check(datasetConfigFields());
        check(modelConfigFields());
        check(trainingConfigFields());
    }
}

ATTNSCOPE_TEST(configfields, TestConfigFields)
#include "tst_configfields.moc"
