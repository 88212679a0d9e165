#include "app/attention/commandmodel.h"

#include "app/core/commandline.h"
#include "app/workbench/otherlabfile.h"
#include "engine/attention/checkpointformat.h"

#include <QByteArray>
#include <QFile>

Seq2SeqModel modelToUse(const CommandLine &cl)
{
    if (!cl.has("model"))
        return bundledModel();
    const std::string path = cl.text("model");
    try {
        return Seq2SeqModel::load(path);
    } catch (const CheckpointError &) {
        const std::string other = otherLabsFile(path, "attention", "an attention model checkpoint");
        if (!other.empty())
            throw CheckpointError("cannot load '" + path + "': " + other);
        throw;
    }
}

Seq2SeqModel bundledModel()
{
    QFile bundled(QStringLiteral(":/models/default.ckpt"));
    if (!bundled.open(QIODevice::ReadOnly))
        throw CheckpointError("this build has no bundled model: give --model FILE");
    const QByteArray bytes = bundled.readAll();
    return checkpointformat::decode(std::string(bytes.constData(), size_t(bytes.size())));
}
