#include "app/attention/commandmodel.h"

#include "app/core/commandline.h"
#include "engine/attention/checkpointformat.h"

#include <QByteArray>
#include <QFile>

Seq2SeqModel modelToUse(const CommandLine &cl)
{
    if (cl.has("model"))
        return Seq2SeqModel::load(cl.text("model"));
    return bundledModel();
}

Seq2SeqModel bundledModel()
{
    QFile bundled(QStringLiteral(":/models/default.ckpt"));
    if (!bundled.open(QIODevice::ReadOnly))
        throw CheckpointError("this build has no bundled model: give --model FILE");
    const QByteArray bytes = bundled.readAll();
    return checkpointformat::decode(std::string(bytes.constData(), size_t(bytes.size())));
}
