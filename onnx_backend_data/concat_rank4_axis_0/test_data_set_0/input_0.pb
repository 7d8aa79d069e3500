Bx0J`O
ÞC’โCฏฦ1D3 CZ.Uรฮ๛CK:ฤ%ฬ๊C๔ศ&Di์-Cฮiฤ๐;ทC>;hD>๒4CฎüD@ุซรrWฟCแบVฤ/๒pDÿ
Dส(9C–”9DอรรวýPD