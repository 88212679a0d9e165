#pragma once

#include <cstdint>
#include <string>

// 1234567 as "1,234,567", for counts in messages.
inline std::string withThousands(int64_t n)
{
    std::string digits = std::to_string(n < 0 ? -n : n);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(std::size_t(i), ",");
    return n < 0 ? "-" + digits : digits;
}
