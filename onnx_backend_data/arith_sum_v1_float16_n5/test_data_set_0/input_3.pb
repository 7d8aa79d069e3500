
Bx3J0ТXgcЏUЛв…вKЮЪЭ1c\a„b;ad];Я-c]Я*PЫ[rЫ+VCUµbc‚гцХ