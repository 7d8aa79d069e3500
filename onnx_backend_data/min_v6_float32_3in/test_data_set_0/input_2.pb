Bx2JTํชzร*ร๚ฎD4#ฤำWD;tgฤ6รรงYัCFถร7•C4ฃ
DNฮ|CๆฬมoQนBjืCษ๔CM4D%XCR%D^ฏหร#ีย