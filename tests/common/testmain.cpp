#include "tests/common/testregistry.h"

#include <QApplication>
#include <QTest>

#include <cstdio>
#include <cstring>
#include <vector>

// `tst_<folder> UNIT [Qt Test options]` runs one unit's test class; `tst_<folder>` runs them all;
// `tst_<folder> --units` lists them. The application is a widgets one (offscreen under ctest), as
// QTEST_MAIN makes it, so every unit can draw.
int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    if (argc > 1 && std::strcmp(argv[1], "--units") == 0) {
        for (const auto &unit : testregistry::units())
            std::printf("%s\n", unit.first.c_str());
        return 0;
    }
    if (argc > 1 && argv[1][0] != '-') {
        const auto unit = testregistry::units().find(argv[1]);
        if (unit == testregistry::units().end()) {
            std::fprintf(stderr, "no unit '%s' in this executable (--units lists them)\n", argv[1]);
            return 2;
        }
        std::vector<char *> arguments{argv[0]};
        arguments.insert(arguments.end(), argv + 2, argv + argc);
        const std::unique_ptr<QObject> test = unit->second();
        return QTest::qExec(test.get(), int(arguments.size()), arguments.data());
    }
    int failed = 0;
    for (const auto &unit : testregistry::units()) {
        const std::unique_ptr<QObject> test = unit.second();
        failed += QTest::qExec(test.get(), argc, argv) != 0;
    }
    return failed;
}
