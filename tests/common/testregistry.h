#pragma once

#include <QObject>

#include <functional>
#include <map>
#include <memory>
#include <string>

// Several Qt Test classes in one executable, one per unit (tests/<folder>/<unit>/tst_<unit>.cpp):
// each registers itself by its unit's name, and tests/common/testmain.cpp runs the one named first
// on the command line, as ctest does for every unit, or all of them.
namespace testregistry {

using Factory = std::function<std::unique_ptr<QObject>()>;

inline std::map<std::string, Factory> &units()
{
    static std::map<std::string, Factory> registered;
    return registered;
}

inline bool add(const char *unit, Factory make)
{
    units().emplace(unit, std::move(make));
    return true;
}

}

// In place of QTEST_MAIN at the end of a unit's file: ATTNSCOPE_TEST(tokenizer, TestTokenizer).
#define ATTNSCOPE_TEST(unit, TestClass)                                                                              \
    static const bool attnscope_registered_##unit =                                                                  \
        testregistry::add(#unit, [] { return std::unique_ptr<QObject>(new TestClass); });
