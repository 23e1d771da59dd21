#pragma once
// A value or an error, without exceptions (GCC 12 has no std::expected in C++20).

#include <QString>

#include <utility>
#include <variant>

namespace ridgeline {

struct Error {
    enum class Code { InvalidArgument, NotFound, Io, Parse, Schema, Range, Cancelled, Unsupported };
    Code code = Code::InvalidArgument;
    QString message;  // one sentence for a person: what went wrong and where
};

template <typename T>
class Result {
public:
    Result(T value) : m_state(std::move(value)) {}      // NOLINT(google-explicit-constructor): implicit by design
    Result(Error error) : m_state(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<T>(m_state); }
    T& value() & { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    const Error& error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

inline Error makeError(Error::Code code, QString message)
{
    return Error{code, std::move(message)};
}

}  // namespace ridgeline
