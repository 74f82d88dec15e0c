# Homebrew formula for stubd, kept in the repository so that the repository is its own tap
# (issue 36). Homebrew no longer installs a formula from a bare path (`brew install ./x.rb` is
# refused outside a tap), so:
#
#   brew tap stubd/stubd https://github.com/OWNER/stubd     # or a local clone: brew tap stubd/stubd /path/to/stubd
#   brew install --HEAD stubd/stubd/stubd
#   brew test stubd
#
# HEAD only: there is no tagged source tarball to pin yet. The head is the repository the tap was
# cloned from (this file's own repository), so a fork's tap builds the fork.
#
# Verified on Linux only: `ruby -c` and the build line below run by hand (scripts/build-release runs
# the same `swift build` and `generate-manual`). NOT yet verified on a Mac with Homebrew.
class Stubd < Formula
  desc "Serve canned HTTP answers from a Stubs folder, count hits, and simulate API quotas"
  homepage "https://github.com/OWNER/stubd"
  head "file://#{File.expand_path("..", __dir__)}", using: :git

  # Swift 6.1 (Package.swift's swift-tools-version 6.1, for its package traits) and the macOS 15 SDK
  # (Synchronization's Atomic).
  depends_on xcode: ["16.3", :build]
  depends_on "pkgconf" => :build
  depends_on "gnutls"
  depends_on "libmicrohttpd"
  depends_on macos: :sequoia

  # libcurl: the system's on macOS (Homebrew's pkgconf finds its libcurl.pc), Homebrew's on Linux.
  uses_from_macos "curl"

  def install
    # Homebrew builds in a sandbox of its own; SwiftPM's would nest inside it and fail.
    system "swift", "build", "-c", "release", "--disable-sandbox", "--product", "stubd"
    bin.install ".build/release/stubd"

    # The man page, written by swift-argument-parser's plugin from the command declarations.
    system "swift", "package", "--disable-sandbox", "generate-manual", "--configuration", "release"
    man1.install ".build/plugins/GenerateManual/outputs/StubdCLI/stubd.1"
  end

  test do
    assert_match(/\A\d+\.\d+\.\d+/, shell_output("#{bin}/stubd --version"))

    (testpath/"Stubs/api/hello.json").write <<~JSON
      {"hello": "world"}
    JSON
    output = shell_output("#{bin}/stubd check --stubs #{testpath}/Stubs")
    assert_match "GET /api/hello", output
    assert_match(/^ok: 1 routes/, output)
  end
end
