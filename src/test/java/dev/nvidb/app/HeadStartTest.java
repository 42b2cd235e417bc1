package dev.nvidb.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.app.HeadStart;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which lines begin their agents before they are parsed: those that wait, on the default queue, ticking. */
class HeadStartTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "job submit --wait -- python train.py                 | true",
            "job submit --gpus 2 --wait --json -- true            | true",
            "--json job submit --wait -- true                     | true",
            "job --verbose submit -n x --wait -- true             | true",
            "job wait 3 4                                         | true",
            "job wait --timeout 60 3                              | true",
            "job submit -- python train.py --wait                 | false",
            "job submit -- true                                   | false",
            "job submit --wait --no-tick -- true                  | false",
            "job submit --wait --db-path /tmp/q.db -- true        | false",
            "job submit --wait --db-path=/tmp/q.db -- true        | false",
            "job submit --wait --local -- true                    | false",
            "job submit --wait --help                             | false",
            "job wait -h                                          | false",
            "job wait --no-tick 3                                 | false",
            "job ls --wait                                        | false",
            "queue status                                         | false",
            "wait job 3                                           | false",
            "''                                                   | false",
    })
    void aLineWaitsOnTheDefaultQueue(String line, boolean waits) {
        String[] args = line.isBlank() ? new String[0] : line.trim().split(" +");
        assertEquals(waits, HeadStart.waits(args));
    }
}
