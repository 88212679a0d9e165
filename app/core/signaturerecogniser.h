#pragma once

#include "engine/core/signedfile.h"

#include <QByteArray>

#include <functional>

// Tells one kind of AttnScope's own files (engine/core/signedfile.h) by its first eight bytes, for
// a lab's FileType.
std::function<bool(const QByteArray &head)> signatureRecogniser(const signedfile::Signature &signature);
