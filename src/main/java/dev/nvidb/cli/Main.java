package dev.nvidb.cli;

/** Entry point placeholder; replaced by the picocli root command. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("nvidb");
    }
}
