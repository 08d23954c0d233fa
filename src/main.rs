fn main() {
    std::process::exit(gamerec::cli::main());
}
