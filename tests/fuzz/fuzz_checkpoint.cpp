#include "engine/attention/checkpointformat.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/binaryio.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

// Any bytes either decode into a model, whose encoding decodes and encodes to itself, or throw
// CheckpointError (flags such as the task are normalised, so the input itself need not come back). Input that does not start with the signature is taken as a payload and given a
// correct header, so the fuzzer gets past the checksum and into the parser.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string bytes(reinterpret_cast<const char *>(data), size);
    if (bytes.compare(0, 8, "ATNSCKPT") != 0) {
        BinaryWriter header;
        header.u32(checkpointformat::kVersion);
        header.u32(crc32(bytes.data(), bytes.size()));
        header.i64(std::int64_t(bytes.size()));
        bytes = "ATNSCKPT" + header.bytes() + bytes;
    }
    try {
        const Seq2SeqModel model = checkpointformat::decode(bytes);
        const std::string encoded = checkpointformat::encode(model);
        if (checkpointformat::encode(checkpointformat::decode(encoded)) != encoded)
            std::abort();
        model.reverse("a b");
    } catch (const CheckpointError &) {
    }
    return 0;
}
