#include "core/session/format/session_json.h"

#include <QDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <set>
#include <string>

using namespace ridgeline;

namespace {

// One row per file in tests/data/bad: the substring its error message must contain, and its code.
// tests/data/README.md says how each file was made.
struct BadFile {
    const char* file;
    const char* expected;
    Error::Code code;
};

void PrintTo(const BadFile& bad, std::ostream* os)
{
    *os << bad.file;
}

using Code = Error::Code;

const BadFile kBadFiles[] = {
    {"empty.json", "empty.json: the file is empty", Code::Parse},
    {"whitespace_only.json", "the file is empty", Code::Parse},
    {"truncated.json", "line 15, column 13: an object that is never closed (truncated file?)", Code::Parse},
    {"garbage_after_object.json", "line 30, column 1: unexpected '}' after the end of a JSON value", Code::Parse},
    {"not_utf8.json", "line 5, column 55: the byte 0xe9 is not UTF-8 text", Code::Parse},
    {"utf16.json", "not UTF-8 text: it contains NUL bytes", Code::Parse},
    {"nan_literal.json", "line 24, column 121: NaN is not a JSON number", Code::Parse},
    {"infinity_literal.json", ": Infinity is not a JSON number", Code::Parse},
    {"number_overflow.json", "line 24, column 102: the number 1e999 is out of the range of a double", Code::Parse},
    {"number_underflow.json", "the number 1e-999 is out of the range of a double", Code::Parse},
    {"deep_nesting.json", "lists and objects nested deeper than 1024 levels", Code::Parse},
    {"duplicate_key.json", "line 25, column 125: duplicate key kernels[1].gflops", Code::Parse},
    {"duplicate_key_escaped.json", "duplicate key machine.cores", Code::Parse},
    {"not_an_object.json", "the top level must be a JSON object, got an array", Code::Schema},
    {"format_missing.json", "not a Ridgeline session: no \"format\": \"ridgeline-session\" field", Code::Schema},
    {"format_wrong.json", "format is the string \"speedscope\", expected \"ridgeline-session\"", Code::Schema},
    {"schema_version_missing.json", "missing required field schema_version", Code::Schema},
    {"schema_version_string.json", "schema_version must be an integer, got the string \"1\"", Code::Schema},
    {"schema_version_fraction.json", "schema_version must be an integer, got 1.5", Code::Schema},
    {"schema_version_newer.json", "written by a newer Ridgeline (schema 7); this build reads up to 2",
     Code::Unsupported},
    {"schema_version_zero.json", "schema_version 0 is not a Ridgeline session schema; this build reads schemas 1 to 2",
     Code::Schema},
    {"machine_missing.json", "missing required field machine", Code::Schema},
    {"machine_not_object.json", "machine must be an object, got the string \"AMD EPYC 9R14\"", Code::Schema},
    {"cores_missing.json", "missing required field machine.cores", Code::Schema},
    {"cores_string.json", "machine.cores must be a whole number from 1 to 65536, got the string \"2\"", Code::Schema},
    {"cores_fractional.json", "machine.cores must be a whole number from 1 to 65536, got 2.5", Code::Schema},
    {"cores_zero.json", "machine.cores must be a whole number from 1 to 65536, got 0", Code::Range},
    {"cores_absurd.json", "machine.cores must be a whole number from 1 to 65536, got 100000", Code::Range},
    {"cache_size_absurd.json",
     "machine.caches[1].size_bytes must be a whole number from 0 to 1099511627776, got 2199023255552", Code::Range},
    {"isa_not_strings.json", "machine.isa[1] must be a string, got 3", Code::Schema},
    {"cpu_model_too_long.json", "machine.cpu_model is 5000 characters long; at most 4096 are allowed", Code::Range},
    {"kernel_name_too_long.json", "kernels[2].name is 4097 characters long", Code::Range},
    {"kernel_gflops_negative.json",
     "kernel_gflops_negative.json: kernels[3].gflops must be a finite number >= 0, got -5", Code::Range},
    {"compute_gflops_absurd.json", "ceilings.compute[0].gflops must be at most 1000000000, got 2000000000",
     Code::Range},
    {"curve_gbps_absurd.json", "bandwidth_curve[0].gbps must be at most 1000000000, got 5000000000", Code::Range},
    {"working_set_absurd.json",
     "ceilings.bandwidth[0].working_set_bytes must be a whole number from 0 to 1125899906842624, got 2251799813685248",
     Code::Range},
    {"threads_zero.json", "ceilings.compute[0].threads must be a whole number from 1 to 65536, got 0", Code::Range},
    {"spread_min_above_median.json", "ceilings.compute[0].min (300) must not exceed the median (229.7)", Code::Range},
    {"spread_median_above_max.json", "ceilings.bandwidth[0].median (40.3) must not exceed the max (39)", Code::Range},
    {"spread_incomplete.json", "missing required field ceilings.compute[0].max", Code::Schema},
    {"number_as_string.json", "ceilings.bandwidth[0].gbps must be a finite number >= 0, got the string \"40.3\"",
     Code::Schema},
    {"bool_as_string.json", "quick must be true or false, got the string \"yes\"", Code::Schema},
    {"null_number.json", "kernels[1].seconds must be a finite number >= 0, got null", Code::Schema},
    {"kernels_not_array.json", "kernels must be an array, got an object", Code::Schema},
    {"kernel_not_object.json", "kernels[2] must be an object, got 42", Code::Schema},
    {"ceilings_missing.json", "missing required field ceilings", Code::Schema},
    {"ceilings_compute_missing.json", "missing required field ceilings.compute", Code::Schema},
    {"kernels_missing.json", "missing required field kernels", Code::Schema},
    {"kernel_name_missing.json", "missing required field kernels[0].name", Code::Schema},
    {"unknown_field.json", "unknown field kernels[1].gflop", Code::Schema},
    {"created_not_iso.json", "created must be an ISO 8601 date and time", Code::Schema},
    {"fusion_not_object.json", "fusion must be an object, got 3.5", Code::Schema},
    // The rest of the hostile set (tests/data/README.md, "Hostile files").
    {"deep_nesting_objects.json", "lists and objects nested deeper than 1024 levels", Code::Parse},
    {"nesting_within_limit.json", "title must be a string, got an array", Code::Schema},
    {"cache_size_negative.json",
     "machine.caches[0].size_bytes must be a whole number from 0 to 1099511627776, got -32768", Code::Range},
    {"working_set_negative.json",
     "ceilings.bandwidth[0].working_set_bytes must be a whole number from 0 to 1125899906842624, got -1073741824",
     Code::Range},
    {"batch_negative.json", "kernels[2].batch must be a whole number from 0 to 1048576, got -1", Code::Range},
    {"kernel_bytes_negative.json", "kernels[0].bytes must be a finite number >= 0, got -4096", Code::Range},
    {"negative_infinity_literal.json", "-Infinity is not a JSON number", Code::Parse},
    {"nan_string.json", "kernels[0].gflops must be a finite number >= 0, got the string \"NaN\"", Code::Schema},
    {"duplicate_key_top_level.json", ": duplicate key schema_version", Code::Parse},
    {"overlong_utf8.json", "is not UTF-8 text (a binary file, or another encoding?)", Code::Parse},
    {"utf8_surrogate.json", "is not UTF-8 text (a binary file, or another encoding?)", Code::Parse},
    {"utf8_cut_sequence.json", "is not UTF-8 text (a binary file, or another encoding?)", Code::Parse},
    {"utf32.json", "not UTF-8 text: it contains NUL bytes", Code::Parse},
    {"utf16be_no_bom.json", "not UTF-8 text: it contains NUL bytes", Code::Parse},
    {"schema_version_huge.json", "written by a newer Ridgeline (schema 1e+300); this build reads up to 2",
     Code::Unsupported},
    {"schema_version_negative.json", "schema_version -1 is not a Ridgeline session schema", Code::Schema},
    // Found by fuzzing: Qt's parser accepted a raw newline inside a string, and the message quoted it. JSON writes it
    // escaped: refused by its place.
    {"control_char_in_value.json",
     "line 2, column 26: a raw control character (U+000a) inside a string; JSON writes it escaped", Code::Parse},
    {"control_char_in_key.json",
     "line 25, column 112: a raw control character (U+000a) inside a string; JSON writes it escaped", Code::Parse},
    // Schema 2: the clock, the last-level cache, FLOP/cycle, findings and skipped experiments.
    {"clock_doubtful_without_reason.json", "machine.clock.doubt must say why the clock is doubtful", Code::Schema},
    {"clock_absurd.json", "machine.clock.add_chain_ghz must be at most 1000, got 1001", Code::Range},
    {"finding_kind_unknown.json",
     "findings[0].kind must be \"impossible\", \"doubtful\" or \"note\", got the string \"scary\"", Code::Schema},
    {"skipped_reason_empty.json", "skipped[0].reason must say why it was skipped", Code::Schema},
    {"v1_with_v2_clock.json", "unknown field machine.clock", Code::Schema},
    {"llc_effective_missing.json", "missing required field machine.last_level_cache.effective_bytes", Code::Schema},
    {"ceiling_flops_per_cycle_negative.json",
     "ceilings.compute[0].flops_per_cycle must be a finite number >= 0, got -31", Code::Range},
    // Calibrations (schema 2): each a copy of sessions/calibrated.json with one defect.
    {"calibration_term_unknown.json",
     "calibrations[0].terms[23].name must name an engine term such as \"layer_seconds\" or "
     "\"weight_bandwidth.bf16\", got the string \"warp_speed\"",
     Code::Schema},
    {"calibration_share_zero.json",
     "calibrations[0].terms[5].fitted must be above 0: weight_bandwidth.int4 is a share of a datasheet peak",
     Code::Range},
    {"calibration_time_absurd.json", "calibrations[0].terms[23].fitted must be at most 1, got 5", Code::Range},
    {"calibration_term_twice.json", "calibrations[0].terms[30].name: the term step_seconds appears twice",
     Code::Schema},
    {"calibration_terms_missing.json", "missing required field calibrations[0].terms", Code::Schema},
    {"calibration_free_term_missing.json",
     "calibrations[0].free_terms[9] names the string \"layer_secs\", which is not in terms", Code::Schema},
    {"calibration_free_term_twice.json", "calibrations[0].free_terms[9] names layer_seconds a second time",
     Code::Schema},
    {"calibration_quantity_unknown.json",
     "calibrations[0].points[0].quantity must name a measured quantity such as \"serving_tpot_s\" or "
     "\"e2e_latency_s\", got the string \"speed\"",
     Code::Schema},
    {"calibration_measured_zero.json",
     "calibrations[0].points[1].measured must be above 0: a fitted figure is a time or a rate", Code::Range},
    {"calibration_weights_unknown.json",
     "calibrations[0].points[0].weights must be a number format, got the string \"q4_k\"", Code::Schema},
    {"calibration_points_empty.json", "calibrations[0].points is empty: a calibration fits measured points",
     Code::Schema},
    {"calibration_point_unknown_field.json", "unknown field calibrations[0].points[2].colour", Code::Schema},
    {"calibration_point_twice.json",
     "calibrations[0].points[3]: decode_tokens_per_s of llama_bench_2025.csv:4 tg128 @ d4096 appears twice",
     Code::Schema},
    {"calibration_model_empty.json",
     "calibrations[0].points[0].model is empty: a calibration point names its benchmark file, run, model "
     "and GPU",
     Code::Schema},
    {"calibration_error_inverted.json", "calibrations[0].error_after.median_abs (0.5) must not exceed worst_abs (0.1)",
     Code::Range},
    {"calibration_error_negative.json", "calibrations[0].error_before.rms_log must be a finite number >= 0, got -1",
     Code::Range},
    {"calibration_batch_zero.json", "calibrations[0].points[0].batch must be a whole number from 1 to 65536, got 0",
     Code::Range},
    {"calibration_batch_beyond_model.json",
     "calibrations[0].points[0].batch must be a whole number from 1 to 65536, got 100000", Code::Range},
    {"calibration_tp_beyond_model.json",
     "calibrations[0].points[0].tensor_parallel must be a whole number from 1 to 1024, got 2048", Code::Range},
    {"calibration_prompt_missing.json", "calibrations[0].points[0].prompt must be at least 1 for ttft_s, got 0",
     Code::Range},
    {"calibration_output_too_short.json",
     "calibrations[0].points[1].output must be at least 2 for decode_tokens_per_s, got 1", Code::Range},
    {"calibration_context_beyond_model.json",
     "calibrations[0].points[1].output: prompt and output together are 12000000 tokens; the model "
     "takes at most 10000000",
     Code::Range},
    {"calibration_in_schema_1.json", "unknown field calibrations", Code::Schema},
    {"fusion_zero_filled.json", "fusion.elements must be at least 1", Code::Range},
    {"compute_gflops_zero.json",
     "ceilings.compute[0].gflops must be above 0 (a compute ceiling of 0 GFLOP/s is no roof), got 0", Code::Range},
    {"bandwidth_gbps_zero.json",
     "ceilings.bandwidth[0].gbps must be above 0 (a bandwidth ceiling of 0 GB/s is no roof), got 0", Code::Range},
    {"kernel_seconds_zero.json", "kernels[2].seconds must be above 0 (a kernel that took no time has no rate), got 0",
     Code::Range},
    // The device a GPU kernel ran on (schema 2).
    {"kernel_device_kind_unknown.json", "kernels[1].device.kind must be \"gpu\", got the string \"tpu\"", Code::Schema},
    {"kernel_device_gpu_not_an_id.json",
     "kernels[1].device.gpu must be a catalog GPU id such as \"a100-40gb-sxm\", got the string \"NVIDIA A100\"",
     Code::Schema},
    {"kernel_device_name_empty.json",
     "kernels[1].device.name is empty: leave it out when the profiler does not name the device", Code::Schema},
    {"kernel_device_unknown_field.json", "unknown field kernels[1].device.vendor", Code::Schema},
    {"v1_with_kernel_device.json", "unknown field kernels[1].device", Code::Schema},
};

QString badDir()
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bad");
}

class SessionBadFile : public ::testing::TestWithParam<BadFile> {};

}  // namespace

TEST_P(SessionBadFile, IsRefusedWithItsOwnMessage)
{
    const BadFile& bad = GetParam();
    const QString path = badDir() + u'/' + QLatin1String(bad.file);
    ASSERT_TRUE(QFileInfo::exists(path)) << "fixture missing: " << path.toStdString();

    const Result<Session> loaded = loadSession(path);

    ASSERT_FALSE(loaded.ok()) << bad.file << " loaded although it is broken";
    const QString message = loaded.error().message;
    EXPECT_TRUE(message.contains(QString::fromUtf8(bad.expected))) << "got: " << message.toStdString();
    EXPECT_TRUE(message.startsWith(path + QStringLiteral(": "))) << "the message must name the file first";
    EXPECT_FALSE(message.contains(u'\n')) << "the message must be one line";
    EXPECT_EQ(loaded.error().code, bad.code) << message.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SessionBadFile, ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile>& row) {
                             std::string name = row.param.file;
                             name.resize(name.size() - std::string(".json").size());
                             std::replace_if(
                                 name.begin(), name.end(),
                                 [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0; }, '_');
                             return name;
                         });

TEST(SessionBadFiles, EveryFixtureOnDiskHasARowAndEveryRowHasAFixture)
{
    std::set<std::string> onDisk;
    for (const QString& name : QDir(badDir()).entryList(QDir::Files))
        onDisk.insert(name.toStdString());
    std::set<std::string> inTable;
    for (const BadFile& bad : kBadFiles)
        EXPECT_TRUE(inTable.insert(bad.file).second) << "listed twice: " << bad.file;
    EXPECT_EQ(onDisk, inTable);
    EXPECT_GE(inTable.size(), 30u);
}

TEST(SessionBadFiles, SessionFromJsonNamesTheSourceItWasGiven)
{
    QFile file(badDir() + QStringLiteral("/kernel_gflops_negative.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const Result<Session> loaded = sessionFromJson(file.readAll(), QStringLiteral("session.json"));
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message,
              QStringLiteral("session.json: kernels[3].gflops must be a finite number >= 0, got -5"));
}
