#include "engine/core/tokenizer.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Any bytes tokenize without crashing, and the tokens keep their promises: none is empty or holds
// white space, punctuation stands alone, and joining then tokenizing again gives the same tokens.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    for (bool lowercase : {false, true}) {
        const auto tokens = tokenize(text, lowercase);
        for (const std::string &token : tokens) {
            if (token.empty() || token.find_first_of(" \t\n\r\f\v") != std::string::npos)
                std::abort();
            for (unsigned char c : token)
                if ((c < 0x80 && std::ispunct(c) && token.size() != 1) || (lowercase && c >= 'A' && c <= 'Z'))
                    std::abort();
        }
        if (tokenize(joinTokens(tokens), lowercase) != tokens)
            std::abort();
    }
    return 0;
}
