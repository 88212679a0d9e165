#include "engine/core/dataset.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

// Any file is either loaded whole and well-formed or refused with a DatasetError; the first byte
// picks the settings, the rest is the file.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    static const std::string path = "/tmp/attnscope-fuzz-corpus-" + std::to_string(::getpid()) + ".txt";
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char *>(data + 1),
                                                                  std::streamsize(size - 1));
    DatasetConfig config;
    config.corpusPath = path;
    config.minLength = 1 + (data[0] & 3);
    config.maxLength = config.minLength + ((data[0] >> 2) & 7);
    config.lowercase = data[0] & 0x20;
    config.task = data[0] & 0x40 ? Task::Copy : Task::Reverse;
    try {
        const Dataset d = Dataset::build(config);
        if (d.train.empty() || d.val.empty() || d.test.empty())
            std::abort();
        for (const auto *split : {&d.train, &d.val, &d.test})
            for (const SentencePair &p : *split)
                if (int(p.source.size()) < config.minLength || int(p.source.size()) > config.maxLength
                    || p.target != targetFor(config.task, p.source))
                    std::abort();
    } catch (const DatasetError &) {
    }
    return 0;
}
