package dev.nvidb.web;

import dev.nvidb.history.SampleRow;
import java.util.List;

/**
 * GPU samples as CSV: a header, then one line per sample in the API's order; times in ISO-8601
 * UTC; null (the driver could not say) is an empty field. Text that a spreadsheet would run as a
 * formula ({@code = + - @} first) gets a leading {@code '}.
 */
final class SampleCsv {

    static final String HEADER = "at,node,gpu,gpu_name,uuid,util_percent,mem_util_percent,mem_used_mb,mem_total_mb,"
            + "temperature_c,power_w,power_limit_w,processes";

    private SampleCsv() {
    }

    static String of(List<SampleRow> rows) {
        StringBuilder csv = new StringBuilder(HEADER).append("\r\n");
        for (SampleRow row : rows) {
            csv.append(row.at()).append(',')
                    .append(text(row.node())).append(',')
                    .append(row.gpu()).append(',')
                    .append(text(row.gpuName())).append(',')
                    .append(text(row.uuid())).append(',')
                    .append(number(row.utilPercent())).append(',')
                    .append(number(row.memUtilPercent())).append(',')
                    .append(number(row.memUsedMb())).append(',')
                    .append(number(row.memTotalMb())).append(',')
                    .append(number(row.temperatureC())).append(',')
                    .append(number(row.powerW())).append(',')
                    .append(number(row.powerLimitW())).append(',')
                    .append(row.processes()).append("\r\n");
        }
        return csv.toString();
    }

    private static String number(Number value) {
        return value == null ? "" : value.toString();
    }

    static String text(String value) {
        if (value == null) {
            return "";
        }
        String safe = !value.isEmpty() && "=+-@".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        boolean quote = safe.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r');
        return quote ? '"' + safe.replace("\"", "\"\"") + '"' : safe;
    }
}
