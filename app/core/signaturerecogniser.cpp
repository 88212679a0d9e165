#include "app/core/signaturerecogniser.h"

std::function<bool(const QByteArray &head)> signatureRecogniser(const signedfile::Signature &signature)
{
    const QByteArray expected(signature, sizeof(signedfile::Signature));
    return [expected](const QByteArray &head) { return head.startsWith(expected); };
}
