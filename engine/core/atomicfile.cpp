#include "engine/core/atomicfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

std::string folderOf(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void fail(const std::string &what, const std::string &path, int error)
{
    throw std::runtime_error(what + " '" + path + "': " + std::strerror(error));
}

}

void writeFileAtomically(const std::string &path, std::string_view bytes)
{
    writeFileAtomically(path, std::vector<std::string_view>{bytes});
}

void writeFileAtomically(const std::string &path, const std::vector<std::string_view> &pieces)
{
    struct stat existing {};
    const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? existing.st_mode & 07777 : 0644;
    std::string temp = path + ".tmp-XXXXXX";
    std::vector<char> name(temp.begin(), temp.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        fail("cannot create a file in the folder of", path, errno);
    temp = name.data();
    for (std::string_view bytes : pieces) {
        std::size_t written = 0;
        while (written < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const int error = errno;
                ::close(fd);
                ::unlink(temp.c_str());
                fail("cannot write", path, error);
            }
            written += std::size_t(n);
        }
    }
    if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        fail("cannot flush", path, error);
    }
    ::close(fd);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail("cannot replace", path, error);
    }
    // Make the rename itself durable.
    const int dir = ::open(folderOf(path).c_str(), O_RDONLY | O_DIRECTORY);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

std::string readWholeFile(const std::string &path, std::size_t maxBytes)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        fail("cannot open", path, errno);
    if (!S_ISREG(info.st_mode))
        throw std::runtime_error("'" + path + "' is not a regular file");
    if (std::size_t(info.st_size) > maxBytes)
        throw std::runtime_error("'" + path + "' is too large (" + std::to_string(info.st_size) + " bytes)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail("cannot read", path, errno);
    std::string bytes(std::size_t(info.st_size), '\0');
    if (!bytes.empty() && !in.read(&bytes[0], std::streamsize(bytes.size())))
        throw std::runtime_error("cannot read '" + path + "'");
    return bytes;
}
