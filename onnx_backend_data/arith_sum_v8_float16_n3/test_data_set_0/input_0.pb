
Bx0J0Q]ZιPχ^Sΰ®ή΄έζαφα\H`oc¥γVtTYΰS]+`rίuα6έMΦ#]%a