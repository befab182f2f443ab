import StocktakeHistory
import StocktakePostgres
import TestSupport
import Testing

/// The libpq URL, completed from the environment and the password file as psql completes it (every build reads it,
/// so a build without the trait still names the server correctly when it says it cannot use it).
@Suite struct PostgresAddressTests {
    @Test func aFullURL() throws {
        let address = try PostgresAddress.parse(
            "postgresql://ci%40farm:s3cr%3At@db.example.com:6543/stock%20take?sslmode=verify-full&connect_timeout=5",
            environment: [:])
        #expect(address.host == "db.example.com" && address.port == 6543)
        #expect(address.user == "ci@farm" && address.database == "stock take")
        #expect(address.password == "s3cr:t" && address.passwordSource == .url)
        #expect(address.tls == .verifyFull && address.connectTimeoutSeconds == 5)
        #expect(address.description == "postgresql://ci%40farm@db.example.com:6543/stock%20take")
        #expect(!address.description.contains("s3cr"))
    }

    @Test func whatTheURLLeavesOutComesFromTheEnvironment() throws {
        let address = try PostgresAddress.parse(
            "postgres://",
            environment: [
                "PGHOST": "pg.internal", "PGPORT": "5433", "PGUSER": "farm", "PGDATABASE": "history",
                "PGPASSWORD": "from-env", "PGSSLMODE": "require",
            ])
        #expect(address.host == "pg.internal" && address.port == 5433 && address.user == "farm")
        #expect(address.database == "history" && address.tls == .require)
        #expect(address.password == "from-env" && address.passwordSource == .environment)
        // libpq's defaults: the server's socket in its default folder (else the loopback address), 5432, the
        // account's name for the user and the database, TLS preferred; $USER is not libpq's.
        let bare = try PostgresAddress.parse("postgresql://", environment: ["USER": "mallory"], account: "alice")
        #expect(bare.host == "localhost" && bare.port == 5432 && bare.user == "alice" && bare.database == "alice")
        #expect(bare.tls == .prefer && bare.password == nil && bare.passwordSource == .none)
        let local = try PostgresAddress.parse(
            "postgresql:///db", environment: [:], account: "alice",
            exists: { $0 == "/var/run/postgresql/.s.PGSQL.5432" })
        #expect(local.socketPath == "/var/run/postgresql/.s.PGSQL.5432" && local.database == "db")
    }

    @Test func aPasswordInTheURLWinsOverTheEnvironment() throws {
        let address = try PostgresAddress.parse(
            "postgresql://u:inurl@h/db", environment: ["PGPASSWORD": "env"])
        #expect(address.password == "inurl" && address.passwordSource == .url)
    }

    @Test func thePasswordFileIsReadAsLibpqReadsIt() throws {
        let file = """
            # comment
            other.host:5432:*:u:wrong
            h:*:db:u:pa\\:ss\\\\word:ignored
            \\*:*:*:*:not-a-wildcard
            *:*:*:*:fallback
            """
        let read: (String) -> (contents: String, othersCanRead: Bool)? = { path in
            path == "/home/u/.pgpass" ? (file, false) : nil
        }
        let address = try PostgresAddress.parse(
            "postgresql://u@h/db", environment: ["HOME": "/home/u"], readFile: read)
        #expect(address.password == "pa:ss\\word")
        #expect(address.passwordSource == .passwordFile("/home/u/.pgpass"))
        let other = try PostgresAddress.parse(
            "postgresql://v@elsewhere/x", environment: ["HOME": "/home/u"], readFile: read)
        #expect(other.password == "fallback")
        // PGPASSFILE names another file; a file others can read is ignored, as libpq ignores it.
        let named = try PostgresAddress.parse(
            "postgresql://u@h/db", environment: ["PGPASSFILE": "/etc/pgpass"],
            readFile: { $0 == "/etc/pgpass" ? ("h:5432:db:u:named", false) : nil })
        #expect(named.password == "named")
        let open = try PostgresAddress.parse(
            "postgresql://u@h/db", environment: ["HOME": "/home/u"], readFile: { _ in (file, true) })
        #expect(open.password == nil && open.passwordSource == .none)
    }

    @Test func ipv6AndUnixSockets() throws {
        let v6 = try PostgresAddress.parse("postgresql://u@[::1]:5444/db", environment: [:])
        #expect(v6.host == "::1" && v6.port == 5444 && v6.description == "postgresql://u@[::1]:5444/db")
        let socket = try PostgresAddress.parse("postgresql://u@/db?host=/var/run/postgresql", environment: [:])
        #expect(socket.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(socket.description == "postgresql://u@/db?host=/var/run/postgresql")
        let other = try PostgresAddress.parse("postgresql://u@%2Ftmp%2Fpg:6000/db", environment: [:])
        #expect(other.socketPath == "/tmp/pg/.s.PGSQL.6000")
        #expect(other.description == "postgresql://u@/db?host=/tmp/pg&port=6000")
    }

    @Test(arguments: [
        ("postgresql://u@h:99999/db", "the port must be a number from 1 to 65535"),
        ("postgresql://u@h/db?sslmode=sometimes", "sslmode must be"),
        ("postgresql://u@h/db?options=-c%20x", "a parameter is not supported"),
        ("postgresql://u@h/d%zzb", "a '%' is not followed by two hex digits"),
        ("postgresql://u@h1,h2/db", "several hosts are not supported"),
        ("postgresql://u@[::1/db", "misses its ']'"),
    ])
    func badURLsSayWhatIsWrong(url: String, says: String) {
        #expect {
            _ = try PostgresAddress.parse(url, environment: [:], account: "x")
        } throws: { error in
            "\(error)".contains(says) && "\(error)".contains("is not a PostgreSQL connection URL")
        }
    }

    @Test func aURLWithAPasswordIsNeverShownInAnError() {
        for url in ["postgresql://u:hunter2@h:0/db", "postgresql://u:se?cret=1@h/db?bad=1", "postgresql://u:a%zz@h/db"]
        {
            #expect {
                _ = try PostgresAddress.parse(url, environment: [:])
            } throws: { error in
                !"\(error)".contains("hunter2") && !"\(error)".contains("cret") && !"\(error)".contains("a%zz")
            }
        }
    }

    /// Passwords holding unescaped `@`, `/`, `?`, `:` and `#` between random words: the URL is read, or refused,
    /// and no word of the password is in the error, the address shown, its host or its database.
    @Test(arguments: 0..<4) func noPartOfAnUnescapedPasswordIsEverShown(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &+ 41)
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        for _ in 0..<200 {
            let words = (0..<Int.random(in: 2...4, using: &random)).map { _ in
                String((0..<10).map { _ in alphabet.randomElement(using: &random)! })
            }
            var password = words[0]
            for word in words.dropFirst() {
                password += String(["@", "/", "?", ":", "#", "@@", "/@", "?@"].randomElement(using: &random)!) + word
            }
            let tail = ["db.example.com/x", "127.0.0.1:6543/x?sslmode=require", "/x?host=/tmp", "h"]
                .randomElement(using: &random)!
            let url = "postgresql://farm:\(password)@\(tail)"
            let shown: String
            do {
                let address = try PostgresAddress.parse(url, environment: [:], account: "x")
                shown = [address.description, address.host, address.database, address.user].joined(separator: " ")
            } catch {
                shown = "\(error)"
            }
            for word in words { #expect(!shown.contains(word), "\(url) shows \(shown)") }
        }
    }

    /// libpq reads a second `@` as the start of the host; only a password may hold one unescaped.
    @Test func anUnescapedAtAfterTheCredentialsIsRefusedWithoutEcho() {
        for url in [
            "postgresql://u:p@Qz7k@db.example.com/x", "postgresql://u:pa/Qz7k@db.example.com/x",
            "postgresql://u:5?host=h/Qz7k@db.example.com/x",
        ] {
            #expect {
                _ = try PostgresAddress.parse(url, environment: [:])
            } throws: { error in
                "\(error)".contains("write an '@', '/' or ':' in a user name or password as %40")
                    && !"\(error)".contains("Qz7k")
            }
        }
        // Escaped, it is the password; `password=` may hold it unescaped.
        #expect((try? PostgresAddress.parse("postgresql://u:p%40ss@h/x", environment: [:]))?.password == "p@ss")
        #expect((try? PostgresAddress.parse("postgresql://u@h/x?password=p@ss", environment: [:]))?.password == "p@ss")
    }

    /// A connect timeout is bounded: the limits built on it are nanoseconds, and a huge one overflowed them.
    @Test(arguments: ["99999999999", "9223372036854775807", "99999999999999999999", "3601", "-1", "1e3"])
    func aConnectTimeoutOutOfRangeIsRefused(value: String) {
        for (url, environment) in [
            ("postgresql://u@h/db?connect_timeout=\(value)", [String: String]()),
            ("postgresql://u@h/db", ["PGCONNECT_TIMEOUT": value]),
        ] {
            #expect {
                _ = try PostgresAddress.parse(url, environment: environment)
            } throws: { error in
                "\(error)".contains(
                    "connect_timeout (or PGCONNECT_TIMEOUT) must be a whole number of seconds from 0 to 3600")
            }
        }
    }

    @Test func theLongestConnectTimeoutIsTaken() throws {
        let address = try PostgresAddress.parse("postgresql://u@h/db?connect_timeout=3600", environment: [:])
        #expect(address.connectTimeoutSeconds == 3600)
    }

    /// As libpq reads it, a password may hold `?` and `#` unencoded: the credentials end at the first `@`.
    @Test func aPasswordMayHoldQuestionMarksAndHashes() throws {
        let address = try PostgresAddress.parse(
            "postgresql://u:p?a#ss@db.example.com/x?sslmode=require", environment: [:])
        #expect(address.password == "p?a#ss" && address.host == "db.example.com" && address.database == "x")
        #expect(address.tls == .require)
    }

    @Test func aSocketFolderOtherThanTheDefaultMatchesOnlyItsPathInThePasswordFile() throws {
        let file = "localhost:*:*:*:for-localhost\n/tmp/x:*:*:*:for-tmp-x\n"
        let read: (String) -> (contents: String, othersCanRead: Bool)? = { _ in (file, false) }
        let custom = try PostgresAddress.parse(
            "postgresql://u@%2Ftmp%2Fx/db", environment: ["HOME": "/h"], readFile: read)
        #expect(custom.password == "for-tmp-x")
        let standard = try PostgresAddress.parse(
            "postgresql://u@/db?host=/var/run/postgresql", environment: ["HOME": "/h"], readFile: read)
        #expect(standard.password == "for-localhost")
        let other = try PostgresAddress.parse(
            "postgresql://u@/db?host=/srv/sock", environment: ["HOME": "/h"], readFile: read)
        #expect(other.password == nil)
    }

    @Test func onlyServerURLsAreServers() {
        #expect(PostgresAddress.isServerURL("postgresql://h/db") && PostgresAddress.isServerURL("postgres://h"))
        #expect(!PostgresAddress.isServerURL("Reports/history.sqlite"))
        #expect(!PostgresAddress.isServerURL("postgresql:/h"))
    }
}
