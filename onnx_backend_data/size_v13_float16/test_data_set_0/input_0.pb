
BxJ0}▌юYЮ▄┬M0▀YШbПр BlOеbр▀т4a╩у┌рy▐9bАS,^▐\a╩au]