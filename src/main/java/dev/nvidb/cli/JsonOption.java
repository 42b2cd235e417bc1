package dev.nvidb.cli;

import picocli.CommandLine.Option;

/** The shared {@code --json} and {@code --verbose} options, mixed into every command. */
public final class JsonOption {

    @Option(names = "--json", description = "Print one JSON document on stdout (the interface for scripts and agents).")
    boolean json;

    @Option(names = "--verbose", description = "Print stack traces and transport details on failure.")
    boolean verbose;
}
