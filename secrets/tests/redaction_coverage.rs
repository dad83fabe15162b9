//! Planted secrets: one realistic but fake example per kind, in the context it shows up in (a
//! .env line, YAML, Python/JS/Rust/Go source, JSON, a URL, a log line, a bandit message, a PEM
//! block). Every one must come out redacted, with its name and line still readable. The values
//! are generated at test time so this file does not itself trip secret scanners.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_secrets::{REDACTED, redact_text, redact_value};
use serde_json::json;

const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const DIGITS: &str = "0123456789";
const HEX: &str = "0123456789abcdef";

/// A deterministic pseudo-random run of `n` characters from `alphabet`, different per `seed`.
fn rnd(alphabet: &str, n: usize, seed: u64) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            chars[((x >> 33) % chars.len() as u64) as usize]
        })
        .collect()
}

fn alnum(n: usize, seed: u64) -> String {
    // Always mixed: real keys have upper and lower case letters and digits.
    let mut s = rnd(
        &format!("{UPPER}{LOWER}{DIGITS}"),
        n.saturating_sub(3),
        seed,
    );
    s.insert_str(s.len() / 2, "k7Q");
    s
}

fn hex(n: usize, seed: u64) -> String {
    rnd(HEX, n, seed)
}

/// A kind of secret, a text carrying it, and the secret itself.
struct Plant {
    kind: &'static str,
    text: String,
    secret: String,
    /// Must still be in the text after redaction (the name, the scheme, the user).
    kept: &'static str,
}

fn plant(kind: &'static str, secret: String, kept: &'static str, context: &str) -> Plant {
    Plant {
        kind,
        text: context.replace("{}", &secret),
        secret,
        kept,
    }
}

fn pem(kind: &str, lines: usize, width: usize, seed: u64) -> (String, Vec<String>) {
    let body: Vec<String> = (0..lines)
        .map(|i| alnum(if i + 1 == lines { 24 } else { width }, seed + i as u64))
        .collect();
    let text = format!(
        "key = '''\n-----BEGIN {kind}-----\n{}\n-----END {kind}-----\n'''\nprint(key)\n",
        body.join("\n")
    );
    (text, body)
}

fn plants() -> Vec<Plant> {
    let b64 = |n, s| alnum(n, s);
    vec![
        // Assignments in every context.
        plant(
            ".env, unquoted",
            alnum(14, 1),
            "PASSWORD=",
            "PASSWORD={}\nDEBUG=true",
        ),
        plant(
            ".env, export",
            alnum(16, 2),
            "export DB_PASSWORD=",
            "export DB_PASSWORD={}",
        ),
        plant(
            "YAML, unquoted",
            format!("hunter{}", rnd(DIGITS, 3, 3)),
            "password: ",
            "db:\n  user: app\n  password: {}\n",
        ),
        plant(
            "YAML, dotted key",
            alnum(12, 4),
            "spring.datasource.password: ",
            "spring.datasource.password: {}",
        ),
        plant(
            "YAML, list item",
            alnum(12, 5),
            "- secret: ",
            "items:\n  - secret: {}\n",
        ),
        plant(
            "Python pwd (bandit B105)",
            alnum(10, 6),
            "pwd = \"",
            "    pwd = \"{}\"  # nosec",
        ),
        plant(
            "Python passphrase",
            alnum(18, 7),
            "passphrase = '",
            "passphrase = '{}'",
        ),
        plant(
            "Python db_pass",
            alnum(12, 8),
            "DB_PASS = ",
            "DB_PASS = \"{}\"",
        ),
        plant(
            "quote inside a literal",
            format!("it's\\\"{}", alnum(6, 9)),
            "password = \"",
            "password = \"{}\"",
        ),
        plant(
            "bandit message quoting the code",
            format!("it's\"{}", alnum(6, 10)),
            "Possible hardcoded password: '",
            "Possible hardcoded password: '{}'",
        ),
        plant(
            "secret assignment",
            alnum(20, 11),
            "secret = ",
            "app.secret = \"{}\"",
        ),
        plant(
            "*_token assignment",
            alnum(24, 12),
            "slack_token: '",
            "slack_token: '{}'",
        ),
        plant(
            "*_key assignment",
            alnum(32, 13),
            "stripe_key = ",
            "stripe_key = \"{}\"",
        ),
        plant(
            "JSON in a snippet",
            alnum(28, 14),
            "\"api_key\": \"",
            "{\"api_key\": \"{}\", \"user\": \"bob\"}",
        ),
        plant(
            "JS camelCase",
            alnum(28, 15),
            "const apiKey = \"",
            "const apiKey = \"{}\";",
        ),
        plant(
            "Rust const with a type",
            alnum(16, 16),
            "const DB_PASSWORD: &str = \"",
            "const DB_PASSWORD: &str = \"{}\";",
        ),
        plant(
            "Go short assignment",
            alnum(20, 17),
            "token := \"",
            "\ttoken := \"{}\"",
        ),
        plant(
            "Python keyword argument (B106)",
            alnum(12, 18),
            "password=\"",
            "connect(user=\"u\", password=\"{}\")",
        ),
        plant(
            "INI, unquoted",
            format!("s3cr3t{}", alnum(6, 19)),
            "password = ",
            "[db]\npassword = {}\n",
        ),
        plant(
            "XML element",
            alnum(14, 20),
            "<password>",
            "<db><password>{}</password></db>",
        ),
        plant(
            "command-line flag",
            alnum(12, 21),
            "--password=",
            "mysql -u root --password={} shop",
        ),
        plant(
            "query string",
            alnum(30, 22),
            "access_token=",
            "GET /cb?access_token={}&state=x",
        ),
        plant(
            "log line",
            alnum(12, 23),
            "password=",
            "INFO login user=bob password={} ok",
        ),
        plant(
            "AWS secret access key (credentials file)",
            b64(40, 24),
            "aws_secret_access_key = ",
            "[default]\naws_secret_access_key = {}\n",
        ),
        plant(
            "Twilio auth token (env)",
            hex(32, 25),
            "TWILIO_AUTH_TOKEN=",
            "TWILIO_AUTH_TOKEN={}",
        ),
        plant(
            "Discord bot token (env)",
            format!("MT{}.{}.{}", alnum(24, 26), alnum(6, 27), alnum(27, 28)),
            "DISCORD_BOT_TOKEN=",
            "DISCORD_BOT_TOKEN={}",
        ),
        // Formats, found anywhere.
        plant(
            "Stripe secret key",
            format!("{}{}", concat!("sk_", "live_"), alnum(24, 30)),
            "stripe.api_key",
            "stripe.api_key({})",
        ),
        plant(
            "Stripe restricted key",
            format!("{}{}", concat!("rk_", "live_"), alnum(24, 31)),
            "key:",
            "key: {}",
        ),
        plant(
            "Stripe webhook secret",
            format!("{}{}", concat!("whsec", "_"), alnum(32, 32)),
            "verify(",
            "verify(body, {})",
        ),
        plant(
            "AWS access key id",
            format!("AKIA{}", rnd(&format!("{UPPER}{DIGITS}"), 16, 33)),
            "aws_access_key_id",
            "aws_access_key_id={}",
        ),
        plant(
            "GitHub personal token",
            format!("{}{}", concat!("gh", "p_"), alnum(36, 34)),
            "git clone",
            "git clone https://x-access-token:{}@github.com/acme/shop",
        ),
        plant(
            "GitHub OAuth token",
            format!("{}{}", concat!("gh", "o_"), alnum(36, 35)),
            "headers",
            "headers = {{'X': f'token {}'}}",
        ),
        plant(
            "GitHub fine-grained token",
            format!(
                "{}{}_{}",
                concat!("github", "_pat_"),
                alnum(22, 36),
                alnum(59, 37)
            ),
            "GH=",
            "GH={}",
        ),
        plant(
            "GitLab token",
            format!("{}{}", concat!("glp", "at-"), alnum(20, 38)),
            "PRIVATE-TOKEN",
            "curl -H 'PRIVATE-TOKEN {}' x",
        ),
        plant(
            "Slack bot token",
            format!(
                "{}{}-{}-{}",
                concat!("xo", "xb-"),
                rnd(DIGITS, 12, 39),
                rnd(DIGITS, 12, 40),
                alnum(24, 41)
            ),
            "client = WebClient",
            "client = WebClient({})",
        ),
        plant(
            "Slack webhook",
            format!(
                "T{}/B{}/{}",
                rnd(&format!("{UPPER}{DIGITS}"), 8, 42),
                rnd(&format!("{UPPER}{DIGITS}"), 8, 43),
                alnum(24, 44)
            ),
            "hooks.slack.com/services/",
            "requests.post('https://hooks.slack.com/services/{}')",
        ),
        plant(
            "Google API key",
            format!("{}{}", concat!("AI", "za"), alnum(35, 45)),
            "maps.js?key=",
            "<script src=\"maps.js?key={}\">",
        ),
        plant(
            "Google OAuth client secret",
            format!("{}{}", concat!("GOC", "SPX-"), alnum(28, 46)),
            "client_config",
            "client_config({})",
        ),
        plant(
            "GCP service-account JSON private_key",
            alnum(64, 47),
            "\"private_key\": \"",
            "{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n\"}",
        ),
        plant(
            "Azure storage connection string",
            format!("{}==", b64(86, 48)),
            "AccountKey=",
            "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey={};EndpointSuffix=core.windows.net",
        ),
        plant(
            "Azure AD client secret",
            format!("{}8Q~{}", alnum(3, 49), alnum(31, 50)),
            "ClientSecretCredential",
            "ClientSecretCredential(t, c, {})",
        ),
        plant(
            "Twilio API key",
            format!("SK{}", hex(32, 51)),
            "Client(",
            "Client({}, s)",
        ),
        plant(
            "SendGrid key",
            format!("{}{}.{}", concat!("S", "G."), alnum(22, 52), alnum(43, 53)),
            "SendGridAPIClient",
            "SendGridAPIClient({})",
        ),
        plant(
            "Mailgun key",
            format!("{}{}", concat!("ke", "y-"), hex(32, 54)),
            "auth=(\"api\"",
            "auth=(\"api\", \"{}\")",
        ),
        plant(
            "Mailchimp key",
            format!("{}-us{}", hex(32, 55), rnd(DIGITS, 2, 56)),
            "MailchimpMarketing",
            "MailchimpMarketing.Client({})",
        ),
        plant(
            "npm token",
            format!("{}{}", concat!("np", "m_"), alnum(36, 57)),
            "_authToken",
            "//registry.npmjs.org/:_authToken {}",
        ),
        plant(
            "PyPI token",
            format!("{}{}", concat!("pypi-AgEIcHlwaS5", "vcmc"), alnum(70, 58)),
            "twine upload -p",
            "twine upload -p {}",
        ),
        plant(
            "Docker Hub token",
            format!("{}{}", concat!("dckr", "_pat_"), alnum(27, 59)),
            "docker login -p",
            "docker login -p {}",
        ),
        plant(
            "Heroku token",
            format!("{}{}", concat!("HR", "KU-"), alnum(36, 60)),
            "heroku",
            "heroku auth {}",
        ),
        plant(
            "Shopify token",
            format!("{}{}", concat!("shp", "at_"), hex(32, 61)),
            "X-Shopify-Access-Token",
            "X-Shopify-Access-Token {}",
        ),
        plant(
            "Square token",
            format!("{}{}", concat!("sq0", "atp-"), alnum(22, 62)),
            "Square(",
            "Square({})",
        ),
        plant(
            "OpenAI project key",
            format!(
                "{}{}T3BlbkFJ{}",
                concat!("sk-", "proj-"),
                alnum(40, 63),
                alnum(40, 64)
            ),
            "OpenAI(",
            "OpenAI({})",
        ),
        plant(
            "Anthropic key",
            format!(
                "{}{}-{}AA",
                concat!("sk-", "ant-api03"),
                alnum(80, 65),
                alnum(12, 66)
            ),
            "Anthropic(",
            "Anthropic({})",
        ),
        plant(
            "Hugging Face token",
            format!("{}{}", concat!("h", "f_"), alnum(34, 67)),
            "login(",
            "login({})",
        ),
        plant(
            "Groq key",
            format!("{}{}", concat!("gs", "k_"), alnum(52, 68)),
            "Groq(",
            "Groq({})",
        ),
        plant(
            "JWT",
            format!(
                "eyJ{}.eyJ{}.{}",
                alnum(20, 69),
                alnum(40, 70),
                alnum(43, 71)
            ),
            "cookie",
            "cookie {}",
        ),
        plant(
            "Authorization: Bearer",
            alnum(32, 72),
            "Authorization: Bearer ",
            "> Authorization: Bearer {}",
        ),
        plant(
            "Authorization: Basic",
            "dXNlcjpodW50ZXIyIQ==".to_owned(),
            "Authorization: Basic ",
            "Authorization: Basic {}",
        ),
        plant(
            "Authorization: token",
            alnum(32, 73),
            "Authorization: token ",
            "Authorization: token {}",
        ),
        plant(
            "postgres URL",
            alnum(12, 74),
            "postgres://app:",
            "DATABASE_URL=postgres://app:{}@db:5432/shop",
        ),
        plant(
            "mysql URL",
            alnum(12, 75),
            "mysql://root:",
            "engine = create_engine('mysql://root:{}@localhost/shop')",
        ),
        plant(
            "mongodb+srv URL",
            alnum(12, 76),
            "mongodb+srv://admin:",
            "MONGO=mongodb+srv://admin:{}@cluster0.mongodb.net/db",
        ),
        plant(
            "redis URL, no user",
            alnum(12, 77),
            "redis://:",
            "redis://:{}@cache:6379/0",
        ),
        plant(
            "amqp URL",
            alnum(12, 78),
            "amqp://guest:",
            "broker_url = amqp://guest:{}@mq//",
        ),
        plant(
            "https URL",
            alnum(12, 79),
            "https://deploy:",
            "pip install --index-url https://deploy:{}@pypi.acme.dev/simple x",
        ),
        plant(
            "Age secret key",
            format!(
                "AGE-SECRET-KEY-1{}",
                rnd("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 80)
            ),
            "identity",
            "identity {}",
        ),
        plant(
            "Databricks token",
            format!("{}{}", concat!("da", "pi"), hex(32, 81)),
            "host=",
            "host=x token {}",
        ),
        plant(
            "DigitalOcean token",
            format!("{}{}", concat!("do", "p_v1_"), hex(64, 82)),
            "doctl auth init -t",
            "doctl auth init -t {}",
        ),
        plant(
            "Doppler token",
            format!("{}{}", concat!("dp.", "pt."), alnum(43, 83)),
            "doppler",
            "doppler --token {}",
        ),
        plant(
            "Linear key",
            format!("{}{}", concat!("lin", "_api_"), alnum(40, 84)),
            "LinearClient(",
            "LinearClient({})",
        ),
        plant(
            "Discord webhook",
            alnum(68, 85),
            "discord.com/api/webhooks/",
            "https://discord.com/api/webhooks/1234567890/{}",
        ),
        plant(
            "Telegram bot token",
            format!("{}:AA{}", rnd(DIGITS, 10, 86), alnum(33, 87)),
            "api.telegram.org/bot",
            "https://api.telegram.org/bot{}/sendMessage",
        ),
        plant(
            "Atlassian token",
            format!("{}{}", concat!("ATAT", "T3"), alnum(186, 88)),
            "jira(",
            "jira(user, {})",
        ),
        plant(
            "Okta API token",
            format!("00{}", alnum(40, 89)),
            "Authorization: SSWS ",
            "Authorization: SSWS {}",
        ),
        plant(
            "Vault token",
            format!("{}{}", concat!("hv", "s."), alnum(95, 90)),
            "vault login",
            "vault login {}",
        ),
        plant(
            "Grafana service account token",
            format!("{}{}_{}", concat!("gl", "sa_"), alnum(32, 91), hex(8, 92)),
            "grafana",
            "grafana {}",
        ),
        plant(
            "Sentry token",
            format!("{}{}", concat!("sntr", "ys_"), alnum(60, 93)),
            "sentry-cli",
            "sentry-cli --auth {}",
        ),
        plant(
            "New Relic key",
            format!(
                "{}{}",
                concat!("NR", "AK-"),
                rnd(&format!("{UPPER}{DIGITS}"), 27, 94)
            ),
            "newrelic",
            "newrelic {}",
        ),
        plant(
            "Postman key",
            format!("{}{}-{}", concat!("PM", "AK-"), hex(24, 95), hex(34, 96)),
            "postman",
            "postman {}",
        ),
        plant(
            "Tailscale key",
            format!(
                "{}{}-{}",
                concat!("tskey", "-auth-"),
                alnum(12, 97),
                alnum(30, 98)
            ),
            "tailscale up --authkey",
            "tailscale up --authkey {}",
        ),
        plant(
            "Supabase token",
            format!("{}{}", concat!("sb", "p_"), hex(40, 99)),
            "supabase",
            "supabase {}",
        ),
        plant(
            "Alibaba key",
            format!("{}{}", concat!("LT", "AI"), alnum(20, 100)),
            "aliyun",
            "aliyun {}",
        ),
    ]
}

#[test]
fn every_planted_secret_is_redacted_and_its_name_stays() {
    let plants = plants();
    let mut missed = Vec::new();
    for p in &plants {
        let mut s = p.text.clone();
        redact_text(&mut s);
        if s.contains(&p.secret) || !s.contains(REDACTED) || !s.contains(p.kept) {
            missed.push(format!("{}: {:?} → {:?}", p.kind, p.text, s));
        }
        // The same text as a value in an answer.
        let mut v = json!({"items": [{"message": p.text.clone()}]});
        redact_value(&mut v);
        if v.to_string().contains(&p.secret) {
            missed.push(format!("{} (in a JSON answer): {v}", p.kind));
        }
    }
    let (caught, n) = (plants.len() - missed.len(), plants.len());
    println!("planted secrets redacted: {caught} of {n}");
    assert!(n >= 50, "the fixture needs at least 50 kinds, has {n}");
    assert!(
        missed.is_empty(),
        "{caught} of {n}; missed:\n{}",
        missed.join("\n")
    );
}

#[test]
fn private_key_blocks_lose_every_body_line_and_keep_the_line_count() {
    let mut kinds = 0;
    for (i, (kind, width)) in [
        ("RSA PRIVATE KEY", 64),
        ("PRIVATE KEY", 64),
        ("EC PRIVATE KEY", 64),
        ("DSA PRIVATE KEY", 64),
        ("ENCRYPTED PRIVATE KEY", 64),
        ("OPENSSH PRIVATE KEY", 70),
        ("PGP PRIVATE KEY BLOCK", 64),
    ]
    .into_iter()
    .enumerate()
    {
        let (text, body) = pem(kind, 13, width, 200 + i as u64 * 20);
        // The whole block, a window that starts inside it, one that ends inside it, and one
        // with no marker at all: all in one string, as a snippet carries them.
        let lines: Vec<&str> = text.lines().collect();
        let windows = [
            text.clone(),
            lines[5..].join("\n"),
            lines[..9].join("\n"),
            lines[4..12].join("\n"),
        ];
        for window in windows {
            let mut s = window.clone();
            assert!(redact_text(&mut s), "{kind}: nothing redacted in {window}");
            for line in &body {
                assert!(
                    !s.contains(line.as_str()),
                    "{kind}: {line} survived in\n{s}"
                );
            }
            assert_eq!(s.lines().count(), window.lines().count(), "{kind}\n{s}");
            if window.contains("-----BEGIN") {
                assert!(s.contains(&format!("-----BEGIN {kind}-----")), "{s}");
            }
        }
        kinds += 1;
    }
    println!("private-key block kinds redacted: {kinds} of 7");
}
