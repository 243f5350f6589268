import ArgumentParser

/// Where a server's database is: shared by `parley server` and `parley server admin …`, so `--data` and
/// `--database` mean the same wherever they are typed.
struct StorageOptions: ParsableArguments {
    @Option(help: "Directory for the SQLite database (created if missing).")
    var data = "./parley-data"

    @Option(help: ArgumentHelp(
        "PostgreSQL instead of SQLite: postgres://USER[:PASSWORD]@HOST[:PORT]/DB or postgres:///DB?host=/socket/dir&user=USER.",
        discussion: "Defaults to $PARLEY_DATABASE_URL; without either, SQLite in --data."))
    var database: String?
}
